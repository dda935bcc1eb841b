package org.rpcmatrix.httpinvoker;

import java.io.Serializable;
import java.util.List;
import org.rpcmatrix.core.BenchError;

/**
 * The contract as a Java interface for HttpInvoker: Java serialization carries every contract type natively
 * (byte, short, float included), and BenchError is a declared checked exception. The structs are serializable
 * records (the core's records are not Serializable: no other protocol needs it). Served and called over the
 * operation table ({@code OperationProxy}, {@code OperationCaller}) with {@link HttpInvokerMapping}.
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

    InvokerRecord getRecord(String key);

    List<InvokerBook> searchBooks(String query, int count) throws BenchError;

    List<InvokerItem> getItems(int count) throws BenchError;

    void fail(int code, String message) throws BenchError;

    record InvokerRecord(long id, List<String> tags, double[] values) implements Serializable {
    }

    record InvokerBook(String title, List<String> authors, double price, double listPrice, String publisher,
            int year, int month, List<String> keywords, String isbn, int starRating, String url)
            implements Serializable {
    }

    record InvokerItem(long id, String title, String description, String category, String owner, long created,
            long updated, int quantity, double price, float weight) implements Serializable {
    }
}
