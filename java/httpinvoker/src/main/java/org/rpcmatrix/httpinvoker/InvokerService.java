package org.rpcmatrix.httpinvoker;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.Bench;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;

/** The contract's reference behaviour behind {@link InvokerApi}. */
class InvokerService implements InvokerApi {
    private final Bench bench;

    InvokerService(Bench bench) {
        this.bench = bench;
    }

    @Override
    public void ping() {
        // nothing: the smallest round trip
    }

    @Override
    public boolean echoBool(boolean value) {
        return value;
    }

    @Override
    public byte echoInt8(byte value) {
        return value;
    }

    @Override
    public short echoInt16(short value) {
        return value;
    }

    @Override
    public int echoInt32(int value) {
        return value;
    }

    @Override
    public long echoInt64(long value) {
        return value;
    }

    @Override
    public float echoFloat32(float value) {
        return value;
    }

    @Override
    public double echoFloat64(double value) {
        return value;
    }

    @Override
    public String echoString(String value) {
        return value;
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return value;
    }

    @Override
    public boolean isPrime(int n) {
        return unchecked(() -> bench.isPrime(n));
    }

    @Override
    public double average(double[] values) {
        return unchecked(() -> bench.average(values));
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws BenchError {
        return checked(() -> bench.randomDoubles(count, seed));
    }

    @Override
    public double[] logTransform(double[] values) {
        return unchecked(() -> bench.logTransform(values));
    }

    @Override
    public InvokerRecord getRecord(String key) {
        Record r = unchecked(() -> bench.getRecord(key));
        return new InvokerRecord(r.id(), new ArrayList<>(r.tags()), r.values());
    }

    @Override
    public List<InvokerBook> searchBooks(String query, int count) throws BenchError {
        List<InvokerBook> out = new ArrayList<>();
        for (Book b : checked(() -> bench.searchBooks(query, count))) {
            out.add(new InvokerBook(b.title(), new ArrayList<>(b.authors()), b.price(), b.listPrice(), b.publisher(),
                    b.year(), b.month(), new ArrayList<>(b.keywords()), b.isbn(), b.starRating(), b.url()));
        }
        return out;
    }

    @Override
    public List<InvokerItem> getItems(int count) throws BenchError {
        List<InvokerItem> out = new ArrayList<>();
        for (Item i : checked(() -> bench.getItems(count))) {
            out.add(new InvokerItem(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(),
                    i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return out;
    }

    @Override
    public void fail(int code, String message) throws BenchError {
        checked(() -> {
            bench.fail(code, message);
            return null;
        });
    }

    private interface Body<T> {
        T run() throws Exception;
    }

    private static <T> T checked(Body<T> body) throws BenchError {
        try {
            return body.run();
        } catch (BenchError | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T unchecked(Body<T> body) {
        try {
            return body.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
