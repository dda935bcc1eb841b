package org.rpcmatrix.httpinvoker;

import java.util.List;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.javaserial.JavaSerialMapping;
import org.rpcmatrix.javaserial.SerialBook;
import org.rpcmatrix.javaserial.SerialItem;
import org.rpcmatrix.javaserial.SerialRecord;

/**
 * The contract as a Java interface for HttpInvoker: Java serialization carries every contract type natively
 * (byte, short, float included), and BenchError is a declared checked exception. The structs are the serializable
 * records RMI carries too (the javaserial module). Served and called over the operation table
 * ({@code OperationProxy}, {@code OperationCaller}) with {@link JavaSerialMapping}.
 */
public interface InvokerApi {
    void ping();

    boolean echoBool(boolean value);

    byte echoInt8(byte value);

    short echoInt16(short value);

    int echoInt32(int value);

    long echoInt64(long value);

    float echoFloat32(float value);

    double echoFloat64(double value);

    String echoString(String value);

    byte[] echoBytes(byte[] value);

    boolean isPrime(int n);

    double average(double[] values);

    double[] randomDoubles(int count, long seed) throws BenchError;

    double[] logTransform(double[] values);

    SerialRecord getRecord(String key);

    List<SerialBook> searchBooks(String query, int count) throws BenchError;

    List<SerialItem> getItems(int count) throws BenchError;

    void fail(int code, String message) throws BenchError;
}
