package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.xmlrpc.common.XmlRpcHttpRequestConfigImpl;
import org.junit.jupiter.api.Test;
import org.xml.sax.ContentHandler;
import org.xml.sax.helpers.AttributesImpl;

class CarriageReturnSafeXmlWriterFactoryTest {
    private static String write(String text) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ContentHandler writer = new CarriageReturnSafeXmlWriterFactory().getXmlWriter(new XmlRpcHttpRequestConfigImpl(), out);
        writer.startDocument();
        writer.startElement("", "value", "value", new AttributesImpl());
        char[] chars = text.toCharArray();
        writer.characters(chars, 0, chars.length);
        writer.endElement("", "value", "value");
        writer.endDocument();
        String xml = out.toString(StandardCharsets.UTF_8);
        return xml.substring(xml.indexOf("<value>"));
    }

    @Test
    void carriageReturnsAreCharacterReferences() throws Exception {
        assertEquals("<value>a\tb\nc&#13;d&#13;\ne</value>", write("a\tb\nc\rd\r\ne"));
        assertEquals("<value>&#13;</value>", write("\r"));
    }

    @Test
    void nonAsciiIsUtf8TextNotSurrogateReferences() throws Exception {
        assertEquals("<value>Grüße 𝄞 &lt;&amp;&gt;</value>", write("Grüße 𝄞 <&>"));
    }
}
