package org.rpcmatrix.core.reference;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

/**
 * The contract's behaviour (CONTRACT.md). Servers answer with it; clients compute expected answers with it.
 * Thread-safe.
 */
public final class ReferenceBench implements Bench {
    static final int NEGATIVE_COUNT_CODE = 400;
    static final String NEGATIVE_COUNT_MESSAGE = "count must not be negative";

    /** Gredler's lists were static: item lists are cached per count, for a bounded number of counts. */
    private static final int ITEM_CACHE_COUNTS = 32;

    private final Map<Integer, List<Item>> itemsByCount = new ConcurrentHashMap<>();

    @Override
    public void ping() {
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
        if (n < 2) {
            return false;
        }
        if (n % 2 == 0) {
            return n == 2;
        }
        for (long d = 3; d * d <= n; d += 2) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public double average(double[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        double sum = 0.0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws BenchError {
        checkCount(count);
        SplitMix64 rng = new SplitMix64(seed);
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
            values[i] = rng.nextDouble();
        }
        return values;
    }

    @Override
    public List<double[]> randomDoublesStream(int count, long seed, int chunk) throws BenchError {
        checkCount(count);
        if (chunk <= 0) {
            throw new BenchError(NEGATIVE_COUNT_CODE, "chunk must be positive");
        }
        double[] all = randomDoubles(count, seed);
        List<double[]> chunks = new ArrayList<>();
        for (int from = 0; from < count; from += chunk) {
            chunks.add(Arrays.copyOfRange(all, from, Math.min(count, from + chunk)));
        }
        return chunks;
    }

    @Override
    public double[] logTransform(double[] values) {
        double[] logs = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            logs[i] = Math.log(values[i]);
        }
        return logs;
    }

    @Override
    public Record getRecord(String key) {
        SplitMix64 rng = new SplitMix64(Fnv1a64.hashUtf8(key));
        long id = rng.signed64();
        List<String> tags = words(rng, 8, 12);
        double[] values = new double[16];
        for (int i = 0; i < values.length; i++) {
            values[i] = rng.nextDouble() * 1000.0;
        }
        return new Record(id, tags, values);
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws BenchError {
        checkCount(count);
        SplitMix64 rng = new SplitMix64(Fnv1a64.hashUtf8(query));
        List<Book> books = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            books.add(nextBook(rng));
        }
        return List.copyOf(books);
    }

    @Override
    public List<Item> getItems(int count) throws BenchError {
        checkCount(count);
        List<Item> cached = itemsByCount.get(count);
        if (cached != null) {
            return cached;
        }
        List<Item> items = generateItems(count);
        if (itemsByCount.size() < ITEM_CACHE_COUNTS) {
            itemsByCount.putIfAbsent(count, items);
        }
        return items;
    }

    @Override
    public void fail(int code, String message) throws BenchError {
        throw new BenchError(code, message);
    }

    private static void checkCount(int count) throws BenchError {
        if (count < 0) {
            throw new BenchError(NEGATIVE_COUNT_CODE, NEGATIVE_COUNT_MESSAGE);
        }
    }

    private static List<String> words(SplitMix64 rng, long count, int length) {
        List<String> words = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            words.add(rng.word(length));
        }
        return List.copyOf(words);
    }

    private static Book nextBook(SplitMix64 rng) {
        String title = rng.word(40);
        List<String> authors = words(rng, 1 + rng.below(3), 20);
        double price = rng.below(10000) / 100.0;
        double listPrice = price + rng.below(5000) / 100.0;
        String publisher = rng.word(24);
        int year = 1950 + (int) rng.below(76);
        int month = 1 + (int) rng.below(12);
        List<String> keywords = words(rng, rng.below(6), 10);
        StringBuilder isbn = new StringBuilder("978");
        for (int d = 0; d < 10; d++) {
            isbn.append((char) ('0' + rng.below(10)));
        }
        int starRating = (int) rng.below(6);
        String url = "https://books.example.org/isbn/" + isbn;
        return new Book(title, authors, price, listPrice, publisher, year, month, keywords, isbn.toString(),
                starRating, url);
    }

    private static List<Item> generateItems(int count) {
        SplitMix64 rng = new SplitMix64(count);
        List<Item> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long id = rng.signed64();
            String title = rng.word(40);
            String description = rng.word(40);
            String category = rng.word(40);
            String owner = rng.word(40);
            long created = 1_000_000_000_000L + rng.below(1_000_000_000_000L);
            long updated = created + rng.below(1_000_000_000L);
            int quantity = rng.signed32();
            double price = rng.nextDouble() * 1_000_000.0;
            float weight = (float) rng.nextDouble();
            items.add(new Item(id, title, description, category, owner, created, updated, quantity, price, weight));
        }
        return List.copyOf(items);
    }
}
