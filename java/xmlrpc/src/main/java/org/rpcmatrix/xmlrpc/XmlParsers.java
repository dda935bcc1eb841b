package org.rpcmatrix.xmlrpc;

import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import org.apache.xmlrpc.util.SAXParsers;
import org.xml.sax.SAXException;

/**
 * The library parses every message with one process-wide SAX parser factory ({@link SAXParsers}), which turns
 * external entities off but still fetches an external DTD from any URL a document names (a request the peer makes
 * the server send). XML-RPC has no use for a document type declaration: any DOCTYPE is refused, which also stops
 * entity expansion and every external fetch.
 */
final class XmlParsers {
    private XmlParsers() {
    }

    static synchronized void refuseDoctypes() {
        SAXParserFactory factory = SAXParsers.getSAXParserFactory();
        try {
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("the JDK's SAX parser refused a hardening feature", e);
        }
        factory.setXIncludeAware(false);
    }
}
