package org.rpcmatrix.thrift;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;
import org.rpcmatrix.thrift.gen.Bench;

/**
 * The Thrift client: the generated synchronous client over one persistent TSocket (TCP_NODELAY is TSocket's
 * default) in a framed transport. Received float32 values are checked to be exactly a float32.
 */
final class ThriftClient implements BenchClient {
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    /** Far above any call of the contract; a stuck server fails the call instead of hanging the client. */
    private static final int SOCKET_TIMEOUT_MS = 120_000;

    private final TTransport transport;
    private final Bench.Client client;

    private ThriftClient(TTransport transport, Bench.Client client) {
        this.transport = transport;
        this.client = client;
    }

    static BenchClient connect(ClientOptions options, Wire wire) throws Exception {
        TSocket socket = new TSocket(new TConfiguration(), options.host(), options.port(), SOCKET_TIMEOUT_MS,
                CONNECT_TIMEOUT_MS);
        TTransport transport = new TFramedTransport(socket);
        transport.open();
        return new ThriftClient(transport, new Bench.Client(wire.protocolFactory().getProtocol(transport)));
    }

    @Override
    public void ping() throws Exception {
        client.ping();
    }

    @Override
    public boolean echoBool(boolean value) throws Exception {
        return client.echoBool(value);
    }

    @Override
    public byte echoInt8(byte value) throws Exception {
        return client.echoInt8(value);
    }

    @Override
    public short echoInt16(short value) throws Exception {
        return client.echoInt16(value);
    }

    @Override
    public int echoInt32(int value) throws Exception {
        return client.echoInt32(value);
    }

    @Override
    public long echoInt64(long value) throws Exception {
        return client.echoInt64(value);
    }

    @Override
    public float echoFloat32(float value) throws Exception {
        return ThriftMapping.toFloat32(client.echoFloat32(value), "echoFloat32 result");
    }

    @Override
    public double echoFloat64(double value) throws Exception {
        return client.echoFloat64(value);
    }

    @Override
    public String echoString(String value) throws Exception {
        return client.echoString(value);
    }

    @Override
    public byte[] echoBytes(byte[] value) throws Exception {
        return ThriftMapping.toBytes(client.echoBytes(ByteBuffer.wrap(value)));
    }

    @Override
    public boolean isPrime(int n) throws Exception {
        return client.isPrime(n);
    }

    @Override
    public double average(double[] values) throws Exception {
        return client.average(ThriftMapping.toList(values));
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return ThriftMapping.toArray(declared(() -> client.randomDoubles(count, seed)));
    }

    @Override
    public double[] logTransform(double[] values) throws Exception {
        return ThriftMapping.toArray(client.logTransform(ThriftMapping.toList(values)));
    }

    @Override
    public Record getRecord(String key) throws Exception {
        return ThriftMapping.fromThrift(client.getRecord(key));
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws Exception {
        return ThriftMapping.booksFromThrift(declared(() -> client.searchBooks(query, count)));
    }

    @Override
    public List<Item> getItems(int count) throws Exception {
        return ThriftMapping.itemsFromThrift(declared(() -> client.getItems(count)));
    }

    @Override
    public void fail(int code, String message) throws Exception {
        declared(() -> {
            client.fail(code, message);
            return null;
        });
    }

    /** A call whose IDL declares BenchError: the declared exception becomes the contract's. */
    private static <T> T declared(ThrowingCall<T> call) throws Exception {
        try {
            return call.call();
        } catch (org.rpcmatrix.thrift.gen.BenchError e) {
            throw new BenchError(e.getCode(), e.getMessage());
        }
    }

    @Override
    public void close() {
        transport.close();
    }
}
