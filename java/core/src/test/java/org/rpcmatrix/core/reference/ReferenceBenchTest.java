package org.rpcmatrix.core.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.conformance.Answers;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.Record;

/**
 * The contract's behaviour. The generated-data values were computed independently (a few lines of Python
 * following CONTRACT.md), so these tests catch a misreading of the contract, not just a change.
 */
class ReferenceBenchTest {
    private final ReferenceBench bench = new ReferenceBench();

    @Test
    void isPrime() {
        assertFalse(bench.isPrime(-7));
        assertFalse(bench.isPrime(0));
        assertFalse(bench.isPrime(1));
        assertTrue(bench.isPrime(2));
        assertTrue(bench.isPrime(3));
        assertFalse(bench.isPrime(9));
        assertTrue(bench.isPrime(1000003));
        assertTrue(bench.isPrime(Integer.MAX_VALUE));
        assertFalse(bench.isPrime(Integer.MAX_VALUE - 1));
        assertFalse(bench.isPrime(46349 * 46349));
    }

    @Test
    void average() {
        assertEquals(0.0, bench.average(new double[0]));
        assertEquals(2.5, bench.average(new double[] {1.0, 2.0, 4.5}));
        // Left to right: (1e308 + 1e308) overflows before the division.
        assertEquals(Double.POSITIVE_INFINITY, bench.average(new double[] {1e308, 1e308, -1e308}));
    }

    @Test
    void randomDoublesAreTheGeneratorsDoubles() throws Exception {
        double[] values = bench.randomDoubles(3, 7);
        SplitMix64 rng = new SplitMix64(7);
        assertArrayEquals(new double[] {rng.nextDouble(), rng.nextDouble(), rng.nextDouble()}, values);
        assertEquals(0, bench.randomDoubles(0, 1).length);
    }

    @Test
    void negativeCountsRaiseTheContractError() {
        for (ThrowingCall call : List.<ThrowingCall>of(() -> bench.randomDoubles(-1, 0),
                () -> bench.searchBooks("q", -1), () -> bench.getItems(-1),
                () -> bench.randomDoublesStream(-1, 0, 10))) {
            BenchError error = assertThrows(BenchError.class, call::run);
            assertEquals(400, error.code());
            assertEquals("count must not be negative", error.getMessage());
        }
    }

    @Test
    void streamChunksConcatenateToRandomDoubles() throws Exception {
        List<double[]> chunks = bench.randomDoublesStream(10001, 3, 1000);
        assertEquals(11, chunks.size());
        assertEquals(1, chunks.get(10).length);
        double[] all = (double[]) Answers.comparable(Operation.RANDOM_DOUBLES_STREAM, chunks);
        assertArrayEquals(bench.randomDoubles(10001, 3), all);
    }

    @Test
    void logTransform() {
        assertArrayEquals(new double[] {0.0, Math.log(2.0)}, bench.logTransform(new double[] {1.0, 2.0}));
    }

    @Test
    void getRecord() {
        Record record = bench.getRecord("record-42");
        assertEquals(1275098493813328793L, record.id());
        assertEquals(8, record.tags().size());
        assertEquals("1o1jxSm1FNOO", record.tags().get(0));
        assertEquals("YaC3G2Z3RofM", record.tags().get(1));
        assertEquals(16, record.values().length);
        assertEquals(0x1.9f94bb2f6c8eap+6, record.values()[0]);
    }

    @Test
    void searchBooks() throws Exception {
        Book book = bench.searchBooks("distributed systems", 3).get(0);
        assertEquals(new Book("iksqwDSS8TkxOM5kXHlZWA53A9emk70R8cdC3xLi", List.of("BvtXKLQVrap43UppJE5I"), 97.02,
                128.16, "o0AhZd0aj1AsGprA5QOzEA03", 2011, 6,
                List.of("qrO0OqdLcs", "YX41sw2P5N", "10L5emBYPC", "AdPSKdo57A"), "9786034832457", 2,
                "https://books.example.org/isbn/9786034832457"), book);
        assertEquals(0, bench.searchBooks("rpc", 0).size());
    }

    @Test
    void getItems() throws Exception {
        Item item = bench.getItems(1).get(0);
        assertEquals(-7995527694508729151L, item.id());
        assertEquals("LZzqQqQqTsXUBiFZYnwVSgCpHerJTE10urkq2uK5", item.title());
        assertEquals(1141056973216L, item.created());
        assertEquals(1141741948533L, item.updated());
        assertEquals(-967446978, item.quantity());
        assertEquals(0x1.1ab8d56c42752p+18, item.price());
        assertEquals(0x1.69a088p-2f, item.weight());
        assertSame(bench.getItems(1), bench.getItems(1), "lists are cached per count");
        assertEquals(1000, bench.getItems(1000).size());
    }

    @Test
    void failRaisesItsArguments() {
        BenchError error = assertThrows(BenchError.class, () -> bench.fail(-1, "<&> Grüße"));
        assertEquals(-1, error.code());
        assertEquals("<&> Grüße", error.getMessage());
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws Exception;
    }
}
