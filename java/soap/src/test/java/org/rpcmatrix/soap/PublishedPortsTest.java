package org.rpcmatrix.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Each SOAP server publishes at ?wsdl the one port it speaks, at its own address: a client that takes the first
 * port of the document (many do) reaches it. The contract's WSDL has both ports at a placeholder address.
 */
class PublishedPortsTest {
    private static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";

    @ParameterizedTest
    @CsvSource({"soap11, BenchSoapPort", "soap12, BenchSoap12Port"})
    void onlyTheServedPortIsPublishedAtItsAddress(String protocol, String port) throws Exception {
        SoapServer server = SoapFixtures.server(protocol, null);
        try {
            String address = "http://127.0.0.1:" + server.port() + SoapServer.PATH;
            assertEquals(Map.of(port, address), ports(address + "?wsdl"));
        } finally {
            server.stop();
        }
    }

    private static Map<String, String> ports(String url) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document wsdl = factory.newDocumentBuilder().parse(url);
        Map<String, String> ports = new TreeMap<>();
        NodeList list = wsdl.getElementsByTagNameNS(WSDL_NS, "port");
        for (int i = 0; i < list.getLength(); i++) {
            Element port = (Element) list.item(i);
            Element address = (Element) port.getElementsByTagNameNS("*", "address").item(0);
            ports.put(port.getAttribute("name"), address.getAttribute("location"));
        }
        return ports;
    }
}
