package org.rpcmatrix.xmlrpc;

import java.io.IOException;
import org.apache.ws.commons.serialize.XMLWriter;
import org.apache.ws.commons.serialize.XMLWriterImpl;
import org.apache.xmlrpc.serializer.BaseXmlWriterFactory;
import org.xml.sax.SAXException;

/**
 * The library's XML writer with two fixes, for client and server alike:
 * <ul>
 * <li>CR is written as {@code &#13;}: the library writes it raw, and XML's end-of-line normalisation turns a raw
 * CR into LF at the receiver (the {@code string_tab_lf_cr} vector);</li>
 * <li>characters beyond ASCII are written as UTF-8 text: the library writes each UTF-16 unit it cannot "encode"
 * as a character reference, and for a surrogate half that is a reference to no XML character, which every
 * parser refuses (the {@code string_non_bmp} vector).</li>
 * </ul>
 */
final class CarriageReturnSafeXmlWriterFactory extends BaseXmlWriterFactory {
    @Override
    protected XMLWriter newXmlWriter() {
        return new Writer();
    }

    static final class Writer extends XMLWriterImpl {
        private static final char[] NOTHING = new char[0];

        /** The output is UTF-8 (the library's default encoding, which we keep): it can hold every character. */
        @Override
        public boolean canEncode(char c) {
            return true;
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            int from = start;
            int end = start + length;
            for (int i = start; i < end; i++) {
                if (ch[i] == '\r') {
                    super.characters(ch, from, i - from);
                    writeRaw("&#13;");
                    from = i + 1;
                }
            }
            super.characters(ch, from, end - from);
        }

        private void writeRaw(String text) throws SAXException {
            // super.characters() above has already closed any pending start tag.
            super.characters(NOTHING, 0, 0);
            try {
                getWriter().write(text);
            } catch (IOException e) {
                throw new SAXException(e);
            }
        }
    }
}
