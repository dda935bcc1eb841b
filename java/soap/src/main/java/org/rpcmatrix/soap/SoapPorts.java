package org.rpcmatrix.soap;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.rpcmatrix.core.contract.Protocol;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The ports of idl/bench.wsdl and which one a protocol uses (the registry's {@code soap} variant). */
final class SoapPorts {
    static final String NAMESPACE = "urn:rpcmatrix:bench";
    static final QName SERVICE = new QName(NAMESPACE, "BenchService");
    private static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
    private static final String XSD_NS = "http://www.w3.org/2001/XMLSchema";

    record Port(String soapVersion, String portName) {
    }

    private SoapPorts() {
    }

    static Port of(Protocol protocol) {
        String soap = protocol.variant("soap");
        return switch (soap == null ? "1.1" : soap) {
            case "1.1" -> new Port("1.1", "BenchSoapPort");
            case "1.2" -> new Port("1.2", "BenchSoap12Port");
            default -> throw new IllegalArgumentException("unknown SOAP version '" + soap + "'");
        };
    }

    static String wsdl(Path idl) {
        return idl.resolve("bench.wsdl").toAbsolutePath().toUri().toString();
    }

    /**
     * idl/bench.wsdl with the one port this server speaks: CXF publishes the WSDL it is given at {@code ?wsdl},
     * rewriting only its own port's address, so the other port would be published at the contract's
     * placeholder address (127.0.0.1:8080), first in the document for a SOAP 1.2 server, and a client that takes
     * the first port would call nobody. A temporary copy, in a folder of its own beside a copy of every schema it
     * imports, each import left relative: CXF then publishes each schema at the endpoint ({@code ?xsd=bench.xsd})
     * and points the published import there, so a client on another host can follow it. Made absolute, the import
     * was published as a file: URL of this machine's checkout, which no other host can read and which told every
     * client where the server's files live.
     */
    static String wsdlOf(Path idl, Port port) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document wsdl = factory.newDocumentBuilder().parse(idl.resolve("bench.wsdl").toFile());
        NodeList ports = wsdl.getElementsByTagNameNS(WSDL_NS, "port");
        for (int i = ports.getLength() - 1; i >= 0; i--) {
            Element element = (Element) ports.item(i);
            if (!element.getAttribute("name").equals(port.portName())) {
                element.getParentNode().removeChild(element);
            }
        }
        Path folder = Files.createTempDirectory("rpcmatrix-" + port.portName());
        folder.toFile().deleteOnExit();
        NodeList imports = wsdl.getElementsByTagNameNS(XSD_NS, "import");
        for (int i = 0; i < imports.getLength(); i++) {
            String location = ((Element) imports.item(i)).getAttribute("schemaLocation");
            Path schema = folder.resolve(location).normalize();
            if (!schema.getParent().equals(folder)) {
                throw new IllegalArgumentException("bench.wsdl imports a schema outside idl/: " + location);
            }
            Files.copy(idl.resolve(location), schema);
            schema.toFile().deleteOnExit();
        }
        Path copy = folder.resolve("bench.wsdl");
        copy.toFile().deleteOnExit();
        TransformerFactory.newInstance().newTransformer().transform(new DOMSource(wsdl), new StreamResult(copy.toFile()));
        return copy.toUri().toString();
    }

    static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
