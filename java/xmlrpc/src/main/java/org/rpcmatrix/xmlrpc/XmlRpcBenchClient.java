package org.rpcmatrix.xmlrpc;

import java.net.URL;
import java.util.List;
import org.apache.xmlrpc.XmlRpcException;
import org.apache.xmlrpc.client.XmlRpcClient;
import org.apache.xmlrpc.client.XmlRpcClientConfigImpl;
import org.apache.xmlrpc.client.XmlRpcSunHttpTransportFactory;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Operation;
import org.rpcmatrix.core.Record;

/** The contract over Apache XML-RPC's {@link XmlRpcClient}: strict XML-RPC, HttpURLConnection with keep-alive. */
public final class XmlRpcBenchClient implements BenchClient {
    private final XmlRpcClient client;

    private XmlRpcBenchClient(XmlRpcClient client) {
        this.client = client;
    }

    public static XmlRpcBenchClient connect(ClientOptions options) throws Exception {
        XmlRpcClientConfigImpl config = new XmlRpcClientConfigImpl();
        String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        config.setServerURL(new URL("http", host, options.port(), JettyXmlRpcServer.PATH));
        config.setEnabledForExtensions(false);
        // Send a Content-Length (the library buffers the request): the server can keep the connection open.
        config.setContentLengthOptional(false);
        XmlRpcClient client = new XmlRpcClient();
        client.setConfig(config);
        // The library's default transport, named: Sun's HttpURLConnection, whose keep-alive cache reuses the
        // connection from call to call (XmlRpcLoopbackTest checks that).
        client.setTransportFactory(new XmlRpcSunHttpTransportFactory(client));
        client.setXmlWriterFactory(new CarriageReturnSafeXmlWriterFactory());
        return new XmlRpcBenchClient(client);
    }

    /** Calls {@code op}; a fault is the contract's BenchError (faultCode, faultString). */
    private Object call(Operation op, Object... args) throws Exception {
        Object[] params = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            params[i] = XmlRpcCarriage.toWire(op.paramTypes().get(i), args[i]);
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
        return XmlRpcCarriage.fromWire(op.returnType(), result);
    }

    @Override
    public void ping() throws Exception {
        call(Operation.PING);
    }

    @Override
    public boolean echoBool(boolean value) throws Exception {
        return (Boolean) call(Operation.ECHO_BOOL, value);
    }

    @Override
    public byte echoInt8(byte value) throws Exception {
        return (Byte) call(Operation.ECHO_INT8, value);
    }

    @Override
    public short echoInt16(short value) throws Exception {
        return (Short) call(Operation.ECHO_INT16, value);
    }

    @Override
    public int echoInt32(int value) throws Exception {
        return (Integer) call(Operation.ECHO_INT32, value);
    }

    @Override
    public long echoInt64(long value) throws Exception {
        return (Long) call(Operation.ECHO_INT64, value);
    }

    @Override
    public float echoFloat32(float value) throws Exception {
        return (Float) call(Operation.ECHO_FLOAT32, value);
    }

    @Override
    public double echoFloat64(double value) throws Exception {
        return (Double) call(Operation.ECHO_FLOAT64, value);
    }

    @Override
    public String echoString(String value) throws Exception {
        return (String) call(Operation.ECHO_STRING, value);
    }

    @Override
    public byte[] echoBytes(byte[] value) throws Exception {
        return (byte[]) call(Operation.ECHO_BYTES, (Object) value);
    }

    @Override
    public boolean isPrime(int n) throws Exception {
        return (Boolean) call(Operation.IS_PRIME, n);
    }

    @Override
    public double average(double[] values) throws Exception {
        return (Double) call(Operation.AVERAGE, (Object) values);
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return (double[]) call(Operation.RANDOM_DOUBLES, count, seed);
    }

    @Override
    public double[] logTransform(double[] values) throws Exception {
        return (double[]) call(Operation.LOG_TRANSFORM, (Object) values);
    }

    @Override
    public Record getRecord(String key) throws Exception {
        return (Record) call(Operation.GET_RECORD, key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Book> searchBooks(String query, int count) throws Exception {
        return (List<Book>) call(Operation.SEARCH_BOOKS, query, count);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Item> getItems(int count) throws Exception {
        return (List<Item>) call(Operation.GET_ITEMS, count);
    }

    @Override
    public void fail(int code, String message) throws Exception {
        call(Operation.FAIL, code, message);
    }

    /** Persistent connections belong to the JDK's keep-alive cache, which closes them at exit. */
    @Override
    public void close() {
    }
}
