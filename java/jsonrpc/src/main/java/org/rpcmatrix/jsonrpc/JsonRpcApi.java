package org.rpcmatrix.jsonrpc;

import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

/**
 * The methods jsonrpc4j serves, named as the contract's operations, with JSON-RPC's carriage
 * (idl/CONTRACT.md): int8 and int16 arrive as JSON integers read into {@code int} and range-checked, because
 * the contract wants a refusal (-32602) where a narrowing conversion would pass silently. Served over the
 * operation table ({@code OperationProxy}) with {@link JsonRpcMapping}: a method per operation, nothing else.
 */
public interface JsonRpcApi {
    void ping();

    boolean echoBool(boolean value);

    int echoInt8(int value);

    int echoInt16(int value);

    int echoInt32(int value);

    long echoInt64(long value);

    float echoFloat32(float value);

    double echoFloat64(double value);

    String echoString(String value);

    byte[] echoBytes(byte[] value);

    boolean isPrime(int n);

    double average(double[] values);

    double[] randomDoubles(int count, long seed) throws Exception;

    double[] logTransform(double[] values);

    Record getRecord(String key);

    List<Book> searchBooks(String query, int count) throws Exception;

    List<Item> getItems(int count) throws Exception;

    void fail(int code, String message) throws Exception;
}
