package org.rpcmatrix.soap;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.ws.soap.SOAPFaultException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** SOAP Faults as one line ("code: string"), from the proxy's exception or from a raw HTTP answer. */
final class Faults {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Faults() {
    }

    static String describe(SOAPFaultException e) {
        return "SOAP Fault " + e.getFault().getFaultCode() + ": " + e.getFault().getFaultString();
    }

    /** POSTs {@code body} as a SOAP 1.1 request on a new connection; the Fault in the answer, or null. */
    static String postRaw(String address, byte[] body, String soapAction) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(address)).timeout(TIMEOUT)
                .header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + soapAction + "\"")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        String fault = fault(response.body());
        if (fault == null && response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + " without a SOAP Fault: "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        return fault;
    }

    /** The Fault of a SOAP 1.1 or 1.2 envelope, or null when it has none. */
    static String fault(byte[] envelope) throws Exception {
        if (envelope.length == 0) {
            return null;
        }
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(envelope));
        NodeList faults = document.getElementsByTagNameNS("*", "Fault");
        if (faults.getLength() == 0) {
            return null;
        }
        Element fault = (Element) faults.item(0);
        String code = text(fault, "faultcode");
        String reason = text(fault, "faultstring");
        if (code == null) { // SOAP 1.2: Code/Value and Reason/Text
            code = text(fault, "Value");
            reason = text(fault, "Text");
        }
        return "SOAP Fault " + code + ": " + reason;
    }

    private static String text(Element parent, String localName) {
        NodeList nodes = parent.getElementsByTagNameNS("*", localName);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().trim();
    }
}
