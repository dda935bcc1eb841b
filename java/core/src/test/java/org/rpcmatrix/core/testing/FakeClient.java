package org.rpcmatrix.core.testing;

import java.util.List;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.reference.ReferenceBench;

/**
 * An in-process client that answers with the contract, except for planted faults: it turns CR into LF (as a
 * careless XML writer does), and its transport breaks on echoInt64(-42).
 */
public class FakeClient implements BenchClient {
    private final ReferenceBench reference = new ReferenceBench();
    public boolean closed;

    @Override
    public void ping() {
    }

    @Override
    public boolean echoBool(boolean value) {
        return value;
    }

    @Override
    public byte echoInt8(byte value) {
        return value;
    }

    @Override
    public short echoInt16(short value) {
        return value;
    }

    @Override
    public int echoInt32(int value) {
        return value;
    }

    @Override
    public long echoInt64(long value) {
        if (value == -42) {
            throw new IllegalStateException("connection reset");
        }
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
        return value.replace('\r', '\n');
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return value.clone();
    }

    @Override
    public boolean isPrime(int n) {
        return reference.isPrime(n);
    }

    @Override
    public double average(double[] values) {
        return reference.average(values);
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return reference.randomDoubles(count, seed);
    }

    @Override
    public double[] logTransform(double[] values) {
        return reference.logTransform(values);
    }

    @Override
    public Record getRecord(String key) {
        return reference.getRecord(key);
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws Exception {
        return reference.searchBooks(query, count);
    }

    @Override
    public List<Item> getItems(int count) throws Exception {
        return reference.getItems(count);
    }

    @Override
    public void fail(int code, String message) throws Exception {
        reference.fail(code, message);
    }

    @Override
    public List<double[]> randomDoublesStream(int count, long seed, int chunk) throws Exception {
        return reference.randomDoublesStream(count, seed, chunk);
    }

    @Override
    public void close() {
        closed = true;
    }
}
