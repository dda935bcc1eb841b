package org.rpcmatrix.core.contract;

import java.util.List;

/** The contract's operations (idl/contract.json), one method each. Every protocol serves and calls this. */
public interface Bench {
    void ping() throws Exception;

    boolean echoBool(boolean value) throws Exception;

    byte echoInt8(byte value) throws Exception;

    short echoInt16(short value) throws Exception;

    int echoInt32(int value) throws Exception;

    long echoInt64(long value) throws Exception;

    float echoFloat32(float value) throws Exception;

    double echoFloat64(double value) throws Exception;

    String echoString(String value) throws Exception;

    byte[] echoBytes(byte[] value) throws Exception;

    boolean isPrime(int n) throws Exception;

    double average(double[] values) throws Exception;

    double[] randomDoubles(int count, long seed) throws Exception;

    double[] logTransform(double[] values) throws Exception;

    Record getRecord(String key) throws Exception;

    List<Book> searchBooks(String query, int count) throws Exception;

    List<Item> getItems(int count) throws Exception;

    void fail(int code, String message) throws Exception;

    /**
     * Needs server streaming (contract.json), which only some protocols have; the chunks in order, as received.
     */
    default List<double[]> randomDoublesStream(int count, long seed, int chunk) throws Exception {
        throw new UnsupportedOperationException("randomDoublesStream is not part of this protocol");
    }
}
