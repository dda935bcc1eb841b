package org.rpcmatrix.thrift;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolException;
import org.rpcmatrix.core.Bench;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.thrift.gen.Book;
import org.rpcmatrix.thrift.gen.Item;
import org.rpcmatrix.thrift.gen.Record;

/** The generated service interface, answered by the contract's reference behaviour. */
final class BenchHandler implements org.rpcmatrix.thrift.gen.Bench.Iface {
    private final Bench reference;

    BenchHandler(Bench reference) {
        this.reference = reference;
    }

    @Override
    public void ping() throws TException {
        call(() -> {
            reference.ping();
            return null;
        });
    }

    @Override
    public boolean echoBool(boolean value) throws TException {
        return call(() -> reference.echoBool(value));
    }

    @Override
    public byte echoInt8(byte value) throws TException {
        return call(() -> reference.echoInt8(value));
    }

    @Override
    public short echoInt16(short value) throws TException {
        return call(() -> reference.echoInt16(value));
    }

    @Override
    public int echoInt32(int value) throws TException {
        return call(() -> reference.echoInt32(value));
    }

    @Override
    public long echoInt64(long value) throws TException {
        return call(() -> reference.echoInt64(value));
    }

    @Override
    public double echoFloat32(double value) throws TException {
        return call(() -> (double) reference.echoFloat32(ThriftMapping.toFloat32(value, "echoFloat32 value")));
    }

    @Override
    public double echoFloat64(double value) throws TException {
        return call(() -> reference.echoFloat64(value));
    }

    @Override
    public String echoString(String value) throws TException {
        return call(() -> reference.echoString(value));
    }

    @Override
    public ByteBuffer echoBytes(ByteBuffer value) throws TException {
        return call(() -> ByteBuffer.wrap(reference.echoBytes(ThriftMapping.toBytes(value))));
    }

    @Override
    public boolean isPrime(int n) throws TException {
        return call(() -> reference.isPrime(n));
    }

    @Override
    public double average(List<Double> values) throws TException {
        return call(() -> reference.average(ThriftMapping.toArray(values)));
    }

    @Override
    public List<Double> randomDoubles(int count, long seed) throws TException {
        return call(() -> ThriftMapping.toList(reference.randomDoubles(count, seed)));
    }

    @Override
    public List<Double> logTransform(List<Double> values) throws TException {
        return call(() -> ThriftMapping.toList(reference.logTransform(ThriftMapping.toArray(values))));
    }

    @Override
    public Record getRecord(String key) throws TException {
        return call(() -> ThriftMapping.toThrift(reference.getRecord(key)));
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws TException {
        return call(() -> ThriftMapping.booksToThrift(reference.searchBooks(query, count)));
    }

    @Override
    public List<Item> getItems(int count) throws TException {
        return call(() -> ThriftMapping.itemsToThrift(reference.getItems(count)));
    }

    @Override
    public void fail(int code, String message) throws TException {
        call(() -> {
            reference.fail(code, message);
            return null;
        });
    }

    /**
     * The contract's BenchError travels as the declared exception: every operation that can raise it (fail,
     * and those taking a count) declares it in bench.thrift. Any other error travels as a
     * TApplicationException that says what went wrong (the processor would otherwise send only
     * "Internal error processing ...").
     */
    private static <T> T call(ThrowingCall<T> answer) throws TException {
        try {
            return answer.call();
        } catch (BenchError e) {
            throw new org.rpcmatrix.thrift.gen.BenchError(e.code(), e.getMessage());
        } catch (TProtocolException e) {
            throw new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage());
        } catch (Exception e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, e.toString());
        }
    }
}
