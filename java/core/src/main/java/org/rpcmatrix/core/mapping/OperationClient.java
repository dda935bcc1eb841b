package org.rpcmatrix.core.mapping;

import java.util.List;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.Record;

/**
 * A client whose protocol calls every operation the same way, by its {@link Operation} and arguments:
 * the typed contract methods are written once here, each protocol writes only {@link #call}.
 */
public abstract class OperationClient implements BenchClient {
    /** Sends one call and returns its result in the contract's Java types (null for void); raises BenchError. */
    protected abstract Object call(Operation op, Object... args) throws Exception;

    @Override
    public void ping() throws Exception {
        call(Operation.PING);
    }

    @Override
    public boolean echoBool(boolean value) throws Exception {
        return (Boolean) call(Operation.ECHO_BOOL, value);
    }

    @Override
    public byte echoInt8(byte value) throws Exception {
        return (Byte) call(Operation.ECHO_INT8, value);
    }

    @Override
    public short echoInt16(short value) throws Exception {
        return (Short) call(Operation.ECHO_INT16, value);
    }

    @Override
    public int echoInt32(int value) throws Exception {
        return (Integer) call(Operation.ECHO_INT32, value);
    }

    @Override
    public long echoInt64(long value) throws Exception {
        return (Long) call(Operation.ECHO_INT64, value);
    }

    @Override
    public float echoFloat32(float value) throws Exception {
        return (Float) call(Operation.ECHO_FLOAT32, value);
    }

    @Override
    public double echoFloat64(double value) throws Exception {
        return (Double) call(Operation.ECHO_FLOAT64, value);
    }

    @Override
    public String echoString(String value) throws Exception {
        return (String) call(Operation.ECHO_STRING, value);
    }

    @Override
    public byte[] echoBytes(byte[] value) throws Exception {
        return (byte[]) call(Operation.ECHO_BYTES, (Object) value);
    }

    @Override
    public boolean isPrime(int n) throws Exception {
        return (Boolean) call(Operation.IS_PRIME, n);
    }

    @Override
    public double average(double[] values) throws Exception {
        return (Double) call(Operation.AVERAGE, (Object) values);
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return (double[]) call(Operation.RANDOM_DOUBLES, count, seed);
    }

    @Override
    public double[] logTransform(double[] values) throws Exception {
        return (double[]) call(Operation.LOG_TRANSFORM, (Object) values);
    }

    @Override
    public Record getRecord(String key) throws Exception {
        return (Record) call(Operation.GET_RECORD, key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Book> searchBooks(String query, int count) throws Exception {
        return (List<Book>) call(Operation.SEARCH_BOOKS, query, count);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Item> getItems(int count) throws Exception {
        return (List<Item>) call(Operation.GET_ITEMS, count);
    }

    @Override
    public void fail(int code, String message) throws Exception {
        call(Operation.FAIL, code, message);
    }
}
