package org.rpcmatrix.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.BenchClient;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The plain SOAP 1.1 server in process: what it publishes at ?wsdl, and calls through the client. */
class PublishedWsdlTest {
    private static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
    private static final String XSD_NS = "http://www.w3.org/2001/XMLSchema";
    private static SoapServer server;

    @BeforeAll
    static void start() throws Exception {
        server = SoapFixtures.server("soap11", null);
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static String url() {
        return "http://127.0.0.1:" + server.port() + SoapServer.PATH;
    }

    @Test
    void thePublishedWsdlDeclaresTheContractsOperationsMessagesAndElements() throws Exception {
        URI published = URI.create(url() + "?wsdl");
        Document served = parse(published);
        Document contract = parse(SoapFixtures.IDL.resolve("bench.wsdl").toUri());
        assertEquals(operations(contract), operations(served));
        assertEquals(messages(contract), messages(served));
        assertEquals(SoapPortsTestView.contractOperationCount(), operations(served).size());
        assertEquals(elements(schemaOf(contract, SoapFixtures.IDL.resolve("bench.wsdl").toUri())),
                elements(schemaOf(served, published)));
    }

    @Test
    void thePublishedWsdlStandsOnItsOwnEveryImportServedByTheServer() throws Exception {
        // a client on another host can read only what the server serves: no file: URL, no path of this checkout
        URI published = URI.create(url() + "?wsdl");
        String text;
        try (InputStream in = published.toURL().openStream()) {
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertFalse(text.contains("file:"), text);
        assertFalse(text.contains(SoapFixtures.IDL.toAbsolutePath().toString()), text);
        Element importing = (Element) parse(published).getElementsByTagNameNS(XSD_NS, "import").item(0);
        URI schema = published.resolve(importing.getAttribute("schemaLocation"));
        assertEquals("http", schema.getScheme(), schema.toString());
        assertEquals(published.getAuthority(), schema.getAuthority(), schema.toString());
        assertEquals(elements(parse(SoapFixtures.IDL.resolve("bench.xsd").toUri())), elements(parse(schema)));
    }

    @Test
    void aClientCanBeBuiltFromThePublishedWsdl() {
        ObjectNode answer = WsdlCheck.check(url() + "?wsdl");
        assertTrue(answer.get("ok").booleanValue(), answer.toString());
    }

    @Test
    void aWsdlWithoutTheContractIsReported() {
        ObjectNode answer = WsdlCheck.check("http://127.0.0.1:" + server.port() + "/nothing-here?wsdl");
        assertFalse(answer.get("ok").booleanValue());
        assertNotNull(answer.get("reason").textValue());
    }

    @Test
    void benchErrorComesBackAsTheContractsError() throws Exception {
        try (BenchClient client = SoapClient.connect(SoapFixtures.client("soap11", server.port(), null))) {
            BenchError error = assertThrows(BenchError.class, () -> client.fail(42, "x & <y>"));
            assertEquals(42, error.code());
            assertEquals("x & <y>", error.getMessage());
            assertEquals("a\r\nb", client.echoString("a\r\nb"));
            assertTrue(Double.isNaN(client.echoFloat64(Double.NaN)));
        }
    }

    private static Document parse(URI uri) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        try (InputStream in = uri.toURL().openStream()) {
            return factory.newDocumentBuilder().parse(in);
        }
    }

    private static Set<String> operations(Document wsdl) {
        Set<String> names = new TreeSet<>();
        Element portType = (Element) wsdl.getElementsByTagNameNS(WSDL_NS, "portType").item(0);
        NodeList ops = portType.getElementsByTagNameNS(WSDL_NS, "operation");
        for (int i = 0; i < ops.getLength(); i++) {
            names.add(((Element) ops.item(i)).getAttribute("name"));
        }
        return names;
    }

    /** Message name to the element of its part, namespace resolved. */
    private static Map<String, String> messages(Document wsdl) {
        Map<String, String> messages = new TreeMap<>();
        NodeList nodes = wsdl.getElementsByTagNameNS(WSDL_NS, "message");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element message = (Element) nodes.item(i);
            Element part = (Element) message.getElementsByTagNameNS(WSDL_NS, "part").item(0);
            String element = part.getAttribute("element");
            String prefix = element.contains(":") ? element.substring(0, element.indexOf(':')) : null;
            messages.put(message.getAttribute("name"),
                    "{" + part.lookupNamespaceURI(prefix) + "}" + element.substring(element.indexOf(':') + 1));
        }
        return messages;
    }

    /** The schema the WSDL imports (bench.xsd, or the server's ?xsd= copy of it). */
    private static Document schemaOf(Document wsdl, URI base) throws Exception {
        Element importing = (Element) wsdl.getElementsByTagNameNS(XSD_NS, "import").item(0);
        return parse(base.resolve(importing.getAttribute("schemaLocation")));
    }

    private static Set<String> elements(Document schema) {
        Set<String> names = new TreeSet<>();
        NodeList children = schema.getDocumentElement().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && "element".equals(e.getLocalName())) {
                names.add(e.getAttribute("name"));
            }
        }
        return names;
    }

    /** The number of operations bench.wsdl must have: the contract's, streaming excluded. */
    private static final class SoapPortsTestView {
        static int contractOperationCount() {
            return WsdlCheck.contractOperations().size();
        }
    }
}
