package org.rpcmatrix.hessian;

import java.io.Serializable;

/**
 * The contract as Hessian and Burlap carry it (idl/CONTRACT.md, carriage): int8 and int16 travel as {@code int}
 * and float32 as {@code double}, checked by the receiver, because Hessian's own byte/short/float readers cast
 * silently. Structs come back as {@code Object}: a Java peer sends {@link WireStructs} objects, another language
 * may send maps, and the client reads both. Served and called over the operation table ({@code OperationProxy},
 * {@code OperationCaller}) with {@link HessianMapping}: a method per operation, named as the contract's.
 */
public interface WireApi {
    void ping();

    boolean echoBool(boolean value);

    int echoInt8(int value);

    int echoInt16(int value);

    int echoInt32(int value);

    long echoInt64(long value);

    /** Object, not double: Hessian would widen an int to the double parameter silently (idl/CONTRACT.md). */
    double echoFloat32(Object value);

    double echoFloat64(Object value);

    String echoString(String value);

    byte[] echoBytes(byte[] value);

    boolean isPrime(int n);

    double average(double[] values);

    double[] randomDoubles(int count, long seed) throws WireFault;

    double[] logTransform(double[] values);

    Object getRecord(String key);

    Object searchBooks(String query, int count) throws WireFault;

    Object getItems(int count) throws WireFault;

    void fail(int code, String message) throws WireFault;

    /** The contract's BenchError (or a rejected argument) on its way to a fault; see {@link FaultDetails}. */
    final class WireFault extends Exception implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int code;

        public WireFault(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public int code() {
            return code;
        }
    }
}
