package org.rpcmatrix.soap;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.ReferenceBench;
import org.rpcmatrix.soap.generated.Bench;
import org.rpcmatrix.soap.generated.BenchErrorFault;
import org.rpcmatrix.soap.generated.Record;

/** The service: the generated port type answered by the contract's reference behaviour. */
final class BenchEndpoint implements Bench {
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
    public double average(List<Double> values) {
        return reference.average(SoapCarriage.toArray(values));
    }

    @Override
    public List<Double> randomDoubles(int count, long seed) throws BenchErrorFault {
        try {
            return SoapCarriage.toList(reference.randomDoubles(count, seed));
        } catch (org.rpcmatrix.core.BenchError e) {
            throw SoapCarriage.toFault(e);
        }
    }

    @Override
    public List<Double> logTransform(List<Double> values) {
        return SoapCarriage.toList(reference.logTransform(SoapCarriage.toArray(values)));
    }

    @Override
    public Record getRecord(String key) {
        return SoapCarriage.toWire(reference.getRecord(key));
    }

    @Override
    public List<org.rpcmatrix.soap.generated.Book> searchBooks(String query, int count) throws BenchErrorFault {
        try {
            List<Book> answer = reference.searchBooks(query, count);
            List<org.rpcmatrix.soap.generated.Book> books = new ArrayList<>(answer.size());
            for (Book book : answer) {
                books.add(SoapCarriage.toWire(book));
            }
            return books;
        } catch (org.rpcmatrix.core.BenchError e) {
            throw SoapCarriage.toFault(e);
        }
    }

    @Override
    public List<org.rpcmatrix.soap.generated.Item> getItems(int count) throws BenchErrorFault {
        try {
            List<Item> answer = reference.getItems(count);
            List<org.rpcmatrix.soap.generated.Item> items = new ArrayList<>(answer.size());
            for (Item item : answer) {
                items.add(SoapCarriage.toWire(item));
            }
            return items;
        } catch (org.rpcmatrix.core.BenchError e) {
            throw SoapCarriage.toFault(e);
        }
    }

    @Override
    public void fail(int code, String message) throws BenchErrorFault {
        try {
            reference.fail(code, message);
        } catch (org.rpcmatrix.core.BenchError e) {
            throw SoapCarriage.toFault(e);
        }
    }
}
