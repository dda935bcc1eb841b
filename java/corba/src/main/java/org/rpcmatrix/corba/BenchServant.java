package org.rpcmatrix.corba;

import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.ReferenceBench;
import rpcmatrix.BenchPOA;

/** Bench served over IIOP: the contract's reference behaviour; BenchError raised as the IDL user exception. */
final class BenchServant extends BenchPOA {
    private final ReferenceBench reference = new ReferenceBench();

    @Override
    public void ping() {
        reference.ping();
    }

    @Override
    public boolean echoBool(boolean value) {
        return reference.echoBool(value);
    }

    /** int8 travels as an octet: Java's byte holds the same two's-complement bits either way. */
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
    public double[] randomDoubles(int count, long seed) throws rpcmatrix.BenchError {
        try {
            return reference.randomDoubles(count, seed);
        } catch (BenchError e) {
            throw CorbaTypes.toIdl(e);
        }
    }

    @Override
    public double[] logTransform(double[] values) {
        return reference.logTransform(values);
    }

    @Override
    public rpcmatrix.Record getRecord(String key) {
        return CorbaTypes.toIdl(reference.getRecord(key));
    }

    @Override
    public rpcmatrix.Book[] searchBooks(String query, int count) throws rpcmatrix.BenchError {
        try {
            return CorbaTypes.booksToIdl(reference.searchBooks(query, count));
        } catch (BenchError e) {
            throw CorbaTypes.toIdl(e);
        }
    }

    @Override
    public rpcmatrix.Item[] getItems(int count) throws rpcmatrix.BenchError {
        try {
            return CorbaTypes.itemsToIdl(reference.getItems(count));
        } catch (BenchError e) {
            throw CorbaTypes.toIdl(e);
        }
    }

    @Override
    public void fail(int code, String message) throws rpcmatrix.BenchError {
        try {
            reference.fail(code, message);
        } catch (BenchError e) {
            throw CorbaTypes.toIdl(e);
        }
    }
}
