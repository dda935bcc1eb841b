package org.rpcmatrix.rmi;

import java.util.List;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.ReferenceBench;

/** Bench served over RMI: the contract's reference behaviour, converted to the wire records. */
final class BenchServant implements RemoteBench {
    private final ReferenceBench reference = new ReferenceBench();

    @Override
    public void ping() {
        reference.ping();
    }

    @Override
    public boolean echoBool(boolean value) {
        return reference.echoBool(value);
    }

    @Override
    public byte echoInt8(byte value) {
        return reference.echoInt8(value);
    }

    @Override
    public short echoInt16(short value) {
        return reference.echoInt16(value);
    }

    @Override
    public int echoInt32(int value) {
        return reference.echoInt32(value);
    }

    @Override
    public long echoInt64(long value) {
        return reference.echoInt64(value);
    }

    @Override
    public float echoFloat32(float value) {
        return reference.echoFloat32(value);
    }

    @Override
    public double echoFloat64(double value) {
        return reference.echoFloat64(value);
    }

    @Override
    public String echoString(String value) {
        return reference.echoString(value);
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return reference.echoBytes(value);
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
    public double[] randomDoubles(int count, long seed) throws BenchError {
        return reference.randomDoubles(count, seed);
    }

    @Override
    public double[] logTransform(double[] values) {
        return reference.logTransform(values);
    }

    @Override
    public RmiTypes.RmiRecord getRecord(String key) {
        return RmiTypes.toWire(reference.getRecord(key));
    }

    @Override
    public List<RmiTypes.RmiBook> searchBooks(String query, int count) throws BenchError {
        return RmiTypes.booksToWire(reference.searchBooks(query, count));
    }

    @Override
    public List<RmiTypes.RmiItem> getItems(int count) throws BenchError {
        return RmiTypes.itemsToWire(reference.getItems(count));
    }

    @Override
    public void fail(int code, String message) throws BenchError {
        reference.fail(code, message);
    }
}
