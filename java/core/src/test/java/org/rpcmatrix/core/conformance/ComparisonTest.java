package org.rpcmatrix.core.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.Record;

/** The comparison rules of CONTRACT.md#vectors. */
class ComparisonTest {
    private static boolean same(Comparison rule, Object expected, Object actual) {
        return rule.firstDifference("result", expected, actual).isEmpty();
    }

    @Test
    void anyNanEqualsAnyNan() {
        double otherNan = Double.longBitsToDouble(0x7ff8000000000001L);
        assertTrue(same(Comparison.EXACT, Double.NaN, otherNan));
        assertTrue(same(Comparison.EXACT, Float.NaN, Float.intBitsToFloat(0xffc00001)));
        assertFalse(same(Comparison.EXACT, Double.NaN, 0.0));
        assertFalse(same(Comparison.WITHIN_ONE_ULP, Double.NaN, Double.MAX_VALUE));
    }

    @Test
    void negativeZeroIsNotZero() {
        assertFalse(same(Comparison.EXACT, -0.0, 0.0));
        assertFalse(same(Comparison.EXACT, -0.0f, 0.0f));
        assertTrue(same(Comparison.EXACT, -0.0, -0.0));
    }

    @Test
    void floatsCompareByBitsNotByType() {
        assertFalse(same(Comparison.EXACT, 1.5f, 1.5));
        assertFalse(same(Comparison.EXACT, 0.1, Math.nextUp(0.1)));
    }

    @Test
    void logTransformAllowsOneUlp() {
        double x = Math.log(3.0);
        double[] expected = {x, 1.0};
        assertTrue(same(Comparison.WITHIN_ONE_ULP, expected, new double[] {Math.nextUp(x), 1.0}));
        assertTrue(same(Comparison.WITHIN_ONE_ULP, expected, new double[] {Math.nextDown(x), 1.0}));
        assertFalse(same(Comparison.WITHIN_ONE_ULP, expected, new double[] {Math.nextUp(Math.nextUp(x)), 1.0}));
        assertFalse(same(Comparison.EXACT, expected, new double[] {Math.nextUp(x), 1.0}));
        // Far-apart values whose ordered bits differ by exactly 2^63 must not wrap into "adjacent".
        assertFalse(same(Comparison.WITHIN_ONE_ULP, 2.0, -2.0));
        assertTrue(same(Comparison.WITHIN_ONE_ULP, Double.MIN_VALUE, 0.0));
        assertEquals(Comparison.WITHIN_ONE_ULP, Comparison.forOperation(Operation.LOG_TRANSFORM));
        assertEquals(Comparison.EXACT, Comparison.forOperation(Operation.AVERAGE));
    }

    @Test
    void arraysReportTheFirstDifferingIndex() {
        Optional<String> difference = Comparison.EXACT.firstDifference("result", new double[] {1, 2, 3},
                new double[] {1, 2, 4});
        assertTrue(difference.orElseThrow().startsWith("result[2]: expected 3.0"), difference.toString());
        assertEquals("result.length: expected 3, actual 2",
                Comparison.EXACT.firstDifference("result", new byte[3], new byte[2]).orElseThrow());
    }

    @Test
    void structsCompareFieldByField() {
        Record expected = new Record(1, List.of("a", "b"), new double[] {0.5});
        assertTrue(same(Comparison.EXACT, expected, new Record(1, List.of("a", "b"), new double[] {0.5})));
        assertEquals("result.tags[1]: expected \"b\", actual \"c\"", Comparison.EXACT
                .firstDifference("result", expected, new Record(1, List.of("a", "c"), new double[] {0.5})).orElseThrow());
        assertEquals("result.values[0]", Comparison.EXACT
                .firstDifference("result", expected, new Record(1, List.of("a", "b"), new double[] {-0.5}))
                .orElseThrow().split(":")[0]);
        Item item = new Item(1, "t", "d", "c", "o", 2, 3, 4, 5.0, 6.0f);
        Item otherWeight = new Item(1, "t", "d", "c", "o", 2, 3, 4, 5.0, Math.nextUp(6.0f));
        assertEquals("result[0].weight", Comparison.EXACT
                .firstDifference("result", List.of(item), List.of(otherWeight)).orElseThrow().split(":")[0]);
    }

    @Test
    void integersStringsAndBytesCompareExactly() {
        assertTrue(same(Comparison.EXACT, 5L, 5L));
        assertFalse(same(Comparison.EXACT, 5L, 5));
        assertFalse(same(Comparison.EXACT, "a\r", "a\n"));
        assertFalse(same(Comparison.EXACT, new byte[] {1, 2}, new byte[] {1, 3}));
        assertTrue(same(Comparison.EXACT, null, null));
        assertFalse(same(Comparison.EXACT, null, true));
    }
}
