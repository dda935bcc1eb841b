"""Names idl/bench.wsdl fixes, shared by the server and the client."""
TNS = "urn:rpcmatrix:bench"  # the target namespace of bench.wsdl and bench.xsd
PATH = "/bench"  # the path of bench.wsdl's soap:address
SERVICE = "BenchService"
BINDINGS = {"1.1": f"{{{TNS}}}BenchSoapBinding", "1.2": f"{{{TNS}}}BenchSoap12Binding"}
RESULT = "result"  # the child of every non-void response element
