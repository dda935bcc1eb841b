package org.rpcmatrix.xmlrpc;

import java.net.URL;
import org.apache.xmlrpc.XmlRpcException;
import org.apache.xmlrpc.client.XmlRpcClientConfigImpl;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationClient;

/**
 * The contract over Apache XML-RPC's {@link org.apache.xmlrpc.client.XmlRpcClient}: strict XML-RPC, on one of its
 * {@link ClientTransport}s.
 */
public final class XmlRpcClient extends OperationClient {
    private final org.apache.xmlrpc.client.XmlRpcClient client;
    private final ClientTransport transport;

    private XmlRpcClient(org.apache.xmlrpc.client.XmlRpcClient client, ClientTransport transport) {
        this.client = client;
        this.transport = transport;
    }

    public static XmlRpcClient connect(ClientOptions options) throws Exception {
        return connect(options, ClientTransport.SUN);
    }

    public static XmlRpcClient connect(ClientOptions options, ClientTransport transport) throws Exception {
        XmlRpcClientConfigImpl config = new XmlRpcClientConfigImpl();
        String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        config.setServerURL(new URL("http", host, options.port(), XmlRpcServer.PATH));
        boolean gzip = options.protocol().gzip();
        // The library compresses only with its vendor extensions on; the carriage (XmlRpcMapping) sends only
        // standard XML-RPC types either way.
        config.setEnabledForExtensions(gzip);
        config.setGzipCompressing(gzip);
        config.setGzipRequesting(gzip);
        // Send a Content-Length (the library buffers the request): the server can keep the connection open.
        config.setContentLengthOptional(false);
        org.apache.xmlrpc.client.XmlRpcClient client = new org.apache.xmlrpc.client.XmlRpcClient();
        client.setConfig(config);
        client.setTypeFactory(new ContractTypeFactory(client));
        XmlParsers.refuseDoctypes();
        // The library's default transport unless told otherwise: Sun's HttpURLConnection, whose keep-alive cache
        // reuses the connection from call to call (XmlRpcLoopbackTest checks that).
        client.setTransportFactory(transport.factory(client, gzip));
        client.setXmlWriterFactory(new CarriageReturnSafeXmlWriterFactory());
        return new XmlRpcClient(client, transport);
    }

    /** Calls {@code op}; a fault is the contract's BenchError (faultCode, faultString). */
    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        Object[] params = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            params[i] = XmlRpcMapping.toWire(op.paramTypes().get(i), args[i]);
        }
        Object result;
        try {
            result = client.execute(op.contractName(), params);
        } catch (XmlRpcException e) {
            // The library raises a fault as a plain XmlRpcException with no cause; transport and parse
            // failures are subclasses or carry their cause.
            if (e.getClass() == XmlRpcException.class && e.getCause() == null) {
                throw new BenchError(e.code, e.getMessage());
            }
            throw e;
        }
        return XmlRpcMapping.fromWire(op.returnType(), result);
    }

    @Override
    public void close() {
        transport.close(client.getTransportFactory());
    }
}
