package org.rpcmatrix.xmlrpc;

import org.apache.xmlrpc.common.TypeFactoryImpl;
import org.apache.xmlrpc.common.XmlRpcController;
import org.apache.xmlrpc.common.XmlRpcStreamConfig;
import org.apache.xmlrpc.parser.TypeParser;
import org.apache.xmlrpc.serializer.XmlRpcWriter;
import org.apache.ws.commons.util.NamespaceContextImpl;

/**
 * Reads the standard XML-RPC types only. The gzip variant needs the library's vendor extensions switched on
 * (it compresses only then), and with them the library would also read {@code <ex:serializable>} through a plain
 * ObjectInputStream (CVE-2016-5003: objects built from the peer's bytes) and {@code <ex:dom>} and the other
 * extension types. The carriage ({@link XmlRpcMapping}) sends none of them, so every extension type is an
 * unknown type here: the parser refuses the message before any value is built.
 */
final class ContractTypeFactory extends TypeFactoryImpl {
    ContractTypeFactory(XmlRpcController controller) {
        super(controller);
    }

    @Override
    public TypeParser getParser(XmlRpcStreamConfig config, NamespaceContextImpl context, String uri,
            String localName) {
        if (XmlRpcWriter.EXTENSIONS_URI.equals(uri)) {
            return null;
        }
        return super.getParser(config, context, uri, localName);
    }
}
