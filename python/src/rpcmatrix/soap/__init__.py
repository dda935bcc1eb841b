"""SOAP 1.1 and 1.2 document/literal wrapped (idl/bench.wsdl): a spyne service hosted by cheroot, a zeep
client, and WS-Security (UsernameToken, X.509 signatures) with zeep.wsse and xmlsec."""
