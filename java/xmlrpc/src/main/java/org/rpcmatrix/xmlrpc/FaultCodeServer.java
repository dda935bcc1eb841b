package org.rpcmatrix.xmlrpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.xmlrpc.XmlRpcException;
import org.apache.xmlrpc.XmlRpcRequest;
import org.apache.xmlrpc.XmlRpcRequestConfig;
import org.apache.xmlrpc.common.ServerStreamConnection;
import org.apache.xmlrpc.common.XmlRpcStreamRequestConfig;
import org.apache.xmlrpc.parser.XmlRpcRequestParser;
import org.apache.xmlrpc.util.SAXParsers;
import org.apache.xmlrpc.webserver.XmlRpcServletServer;
import org.rpcmatrix.httphost.BodyLimit;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;

/**
 * The library's servlet server, answering the fault codes of the XML-RPC fault code conventions
 * (specs.xmlrpc.com, "fault code interoperability"), as the suite's Python and .NET servers do, where Apache
 * XML-RPC 3.1.3 answers 0 for every failure of its own:
 * <ul>
 * <li>-32700 (parse error, not well formed): a body that is not well-formed XML, has a document type
 * declaration ({@link XmlParsers} refuses every DOCTYPE), or goes past a parser limit (elements nested more than
 * 100 deep, an element's text over 4 Mi characters);</li>
 * <li>-32600 (invalid XML-RPC, not conforming to spec): well-formed XML that is not a methodCall, or a value the
 * library cannot read, such as a vendor extension type ({@link ContractTypeFactory});</li>
 * <li>-32601 (method not found), -32602 (invalid params) and the contract's own codes: {@link BenchHandlerMapping};</li>
 * <li>-32300 (transport error): the body could not be read (the peer gone; a gzip body that does not inflate);</li>
 * <li>-32603 (internal error): anything else.</li>
 * </ul>
 * The request is parsed as the library's own {@code XmlRpcStreamServer.getRequest} does (its parser, its SAX
 * reader factory), with the library's parser behind a {@link ContentHandler} that marks what it refuses, so that
 * -32600 can be told from the XML parser's -32700. These faults carry no cause, so the servlet's error logger
 * (BenchXmlRpcServlet) writes no stack trace for what a peer sent. In the gzip variant the inflated body is counted against the
 * contract's 64 MiB ({@link BodyLimit#bounded}: HTTP 413).
 */
final class FaultCodeServer extends XmlRpcServletServer {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_XML_RPC = -32600;
    static final int TRANSPORT_ERROR = -32300;
    /** Elements nested deeper are a parse error; the contract's deepest request is 8 deep (an array of doubles). */
    static final int MAX_DEPTH = 100;
    /**
     * Characters of text in one element; more is a parse error. Four times the contract's largest text (the
     * 1 MiB string of echoString; echoBytes' 1 MiB is 1.4 Mi characters of base64), as the JSON-RPC server's.
     */
    static final int MAX_TEXT_LENGTH = 4 << 20;

    @Override
    protected InputStream getInputStream(XmlRpcStreamRequestConfig config, ServerStreamConnection connection)
            throws IOException {
        InputStream in = super.getInputStream(config, connection);
        if (config.isEnabledForExtensions() && config.isGzipCompressing()) {
            in = BodyLimit.bounded(in, ((ServletStreamConnection) connection).getRequest());
        }
        return in;
    }

    @Override
    protected XmlRpcRequest getRequest(XmlRpcStreamRequestConfig config, InputStream stream) throws XmlRpcException {
        XmlRpcRequestParser parser = new XmlRpcRequestParser(config, getTypeFactory());
        XMLReader reader = SAXParsers.newXMLReader();
        reader.setContentHandler(new InvalidXmlRpc(parser));
        reader.setErrorHandler(QUIET);
        try {
            reader.parse(new InputSource(stream));
        } catch (SAXException e) {
            if (e.getException() instanceof XmlRpcException refused) {
                throw refused; // the library's parser, through InvalidXmlRpc: -32600
            }
            throw new XmlRpcException(PARSE_ERROR, "parse error, not well formed: " + e.getMessage());
        } catch (IOException e) {
            throw new XmlRpcException(TRANSPORT_ERROR, "transport error: the request could not be read: "
                    + e.getMessage());
        }
        String method = parser.getMethodName();
        List<?> params = parser.getParams();
        return new XmlRpcRequest() {
            @Override
            public XmlRpcRequestConfig getConfig() {
                return config;
            }

            @Override
            public String getMethodName() {
                return method;
            }

            @Override
            public int getParameterCount() {
                return params == null ? 0 : params.size();
            }

            @Override
            public Object getParameter(int index) {
                return params.get(index);
            }
        };
    }

    /**
     * The XML parser's errors as exceptions only: without an ErrorHandler, the JDK's parser also prints each
     * fatal error on stderr ("[Fatal Error] :1:1: Content is not allowed in prolog."), a line per bad request.
     */
    private static final ErrorHandler QUIET = new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    };

    /** What the library did not mean to raise (never a fault it built) is -32603 or, for I/O, -32300. */
    @Override
    protected Throwable convertThrowable(Throwable error) {
        if (error instanceof XmlRpcException) {
            return error;
        }
        if (error instanceof IOException) {
            return new XmlRpcException(TRANSPORT_ERROR, "transport error: " + error.getMessage(), error);
        }
        return new XmlRpcException(BenchHandlerMapping.INTERNAL_ERROR, "internal error: " + error, error);
    }

    /**
     * The library's request parser, whose refusals (a root other than methodCall, a misplaced element, an unknown
     * type, a value that does not read) become -32600, behind two parser limits (-32700): the XML parser's own
     * errors pass by it as they are.
     * <ul>
     * <li>Nesting depth: the library's parser hands every SAX event down one parser per open array or struct
     * (RecursiveTypeParserImpl, ObjectArrayParser), so each event costs a Java stack frame per level, and an
     * array nested 100,000 deep took seconds of CPU and then a StackOverflowError (logged with its 1,000 frames).
     * The contract's deepest request is 8 elements deep.</li>
     * <li>Text length: the library gathers a value's text in a StringBuffer; a gzip body inflating to one
     * string of 256 MiB took the 256 MiB heap to OutOfMemoryError before 64 MiB of it had been read.</li>
     * </ul>
     */
    private static final class InvalidXmlRpc implements ContentHandler {
        private final ContentHandler parser;
        private int depth;
        /** Characters since the last element boundary: the text of the element being read. */
        private int text;

        InvalidXmlRpc(ContentHandler parser) {
            this.parser = parser;
        }

        private static SAXException invalid(SAXException e) {
            Exception cause = e.getException(); // a value's parser failing (XmlRpcException, code 0)
            String message = cause == null ? e.getMessage() : cause.getMessage();
            return new SAXException(new XmlRpcException(INVALID_XML_RPC, "invalid XML-RPC: " + message));
        }

        private static SAXException limit(String message) {
            return new SAXException(new XmlRpcException(PARSE_ERROR, "parse error: " + message));
        }

        private void text(int length) throws SAXException {
            text += length;
            if (text > MAX_TEXT_LENGTH || text < 0) {
                throw limit("a text of more than " + MAX_TEXT_LENGTH + " characters");
            }
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            parser.setDocumentLocator(locator);
        }

        @Override
        public void startDocument() throws SAXException {
            try {
                parser.startDocument();
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void endDocument() throws SAXException {
            try {
                parser.endDocument();
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void startPrefixMapping(String prefix, String uri) throws SAXException {
            try {
                parser.startPrefixMapping(prefix, uri);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void endPrefixMapping(String prefix) throws SAXException {
            try {
                parser.endPrefixMapping(prefix);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes attributes)
                throws SAXException {
            if (++depth > MAX_DEPTH) {
                throw limit("elements nested more than " + MAX_DEPTH + " deep");
            }
            text = 0;
            try {
                parser.startElement(uri, localName, qName, attributes);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void endElement(String uri, String localName, String qName) throws SAXException {
            depth--;
            text = 0;
            try {
                parser.endElement(uri, localName, qName);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void characters(char[] chars, int start, int length) throws SAXException {
            text(length);
            try {
                parser.characters(chars, start, length);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void ignorableWhitespace(char[] chars, int start, int length) throws SAXException {
            text(length);
            try {
                parser.ignorableWhitespace(chars, start, length);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void processingInstruction(String target, String data) throws SAXException {
            try {
                parser.processingInstruction(target, data);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }

        @Override
        public void skippedEntity(String name) throws SAXException {
            try {
                parser.skippedEntity(name);
            } catch (SAXException e) {
                throw invalid(e);
            }
        }
    }
}
