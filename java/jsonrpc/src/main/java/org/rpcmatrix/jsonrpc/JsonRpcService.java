package org.rpcmatrix.jsonrpc;

import java.util.List;
import org.rpcmatrix.core.Bench;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;

/** The contract's reference behaviour behind {@link JsonRpcApi}: range checks, then the reference answers. */
final class JsonRpcService implements JsonRpcApi {
    private final Bench bench;

    JsonRpcService(Bench bench) {
        this.bench = bench;
    }

    /** A value outside its contract type, answered with JSON-RPC's "Invalid params" (-32602). */
    static final class InvalidParams extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidParams(String message) {
            super(message);
        }
    }

    @Override
    public void ping() {
        // nothing: the smallest round trip
    }

    @Override
    public boolean echoBool(boolean value) {
        return value;
    }

    @Override
    public int echoInt8(int value) {
        if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
            throw new InvalidParams("int8 out of range: " + value);
        }
        return value;
    }

    @Override
    public int echoInt16(int value) {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
            throw new InvalidParams("int16 out of range: " + value);
        }
        return value;
    }

    @Override
    public int echoInt32(int value) {
        return value;
    }

    @Override
    public long echoInt64(long value) {
        return value;
    }

    @Override
    public float echoFloat32(float value) {
        return value;
    }

    @Override
    public double echoFloat64(double value) {
        return value;
    }

    @Override
    public String echoString(String value) {
        return value;
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return value;
    }

    @Override
    public boolean isPrime(int n) {
        return unchecked(() -> bench.isPrime(n));
    }

    @Override
    public double average(double[] values) {
        return unchecked(() -> bench.average(values));
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return bench.randomDoubles(count, seed);
    }

    @Override
    public double[] logTransform(double[] values) {
        return unchecked(() -> bench.logTransform(values));
    }

    @Override
    public Record getRecord(String key) {
        return unchecked(() -> bench.getRecord(key));
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws Exception {
        return bench.searchBooks(query, count);
    }

    @Override
    public List<Item> getItems(int count) throws Exception {
        return bench.getItems(count);
    }

    @Override
    public void fail(int code, String message) throws Exception {
        bench.fail(code, message);
    }

    private interface Body<T> {
        T run() throws Exception;
    }

    private static <T> T unchecked(Body<T> body) {
        try {
            return body.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
