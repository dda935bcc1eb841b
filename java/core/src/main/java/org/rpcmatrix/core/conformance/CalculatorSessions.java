package org.rpcmatrix.core.conformance;

import java.util.Arrays;
import org.rpcmatrix.core.adapter.CalculatorClient;
import org.rpcmatrix.core.contract.Bench;

/**
 * The session vectors' scripts and the calculatorSession workload on remote objects (CONTRACT.md#vectors,
 * #objects), written once for every protocol whose client is a {@link CalculatorClient}.
 */
public final class CalculatorSessions {
    /** The answer of a session vector or workload on a client that has no remote objects. */
    public static final String NO_REMOTE_OBJECTS = "no remote objects: this client is not a CalculatorClient";

    private CalculatorSessions() {
    }

    /**
     * Runs the named script; returns null when every answer is the contract's, else the first difference.
     * Throws when a call fails unexpectedly (an error, not a difference).
     */
    public static String runScript(String script, CalculatorClient calculators, Bench bench) throws Exception {
        switch (script) {
            case "session":
                return session(calculators);
            case "isolation":
                return isolation(calculators);
            case "released":
                return released(calculators, bench);
            default:
                throw new IllegalArgumentException("unknown calculator script: " + script);
        }
    }

    private static String session(CalculatorClient c) throws Exception {
        Object calc = c.create();
        String difference = first(
                expect("add(5)", 5, c.add(calc, 5)),
                expect("add(-2)", 3, c.add(calc, -2)),
                expect("total()", 3, c.total(calc)));
        if (difference != null) {
            c.release(calc);
            return difference;
        }
        c.clear(calc);
        difference = first(
                expect("total() after clear()", 0, c.total(calc)),
                expect("add(9223372036854775807)", Long.MAX_VALUE, c.add(calc, Long.MAX_VALUE)));
        c.release(calc);
        return difference;
    }

    private static String isolation(CalculatorClient c) throws Exception {
        Object a = c.create();
        Object b = c.create();
        c.add(a, 3);
        c.add(b, 4);
        String difference = first(expect("a.total()", 3, c.total(a)), expect("b.total()", 4, c.total(b)));
        c.release(a);
        c.release(b);
        return difference;
    }

    private static String released(CalculatorClient c, Bench bench) throws Exception {
        Object calc = c.create();
        c.release(calc);
        try {
            long total = c.total(calc);
            return "total() on a released calculator: expected the no-such-object error, answered " + total;
        } catch (Exception e) {
            if (!c.isNoSuchObject(e)) {
                return "total() on a released calculator: expected the no-such-object error, raised "
                        + VectorRunner.describe(e);
            }
        }
        try {
            bench.ping();
        } catch (Exception e) {
            return "ping() after the released calculator's refusal failed: " + VectorRunner.describe(e);
        }
        return null;
    }

    /** One session of the calculatorSession workload: create, add(1) .. add(n), total, release; answers total. */
    public static long session(CalculatorClient c, long n) throws Exception {
        Object calc = c.create();
        for (long i = 1; i <= n; i++) {
            c.add(calc, i);
        }
        long total = c.total(calc);
        c.release(calc);
        return total;
    }

    /** The total a session of {@code n} adds must answer: n(n+1)/2 (int64 arithmetic, as the calculator's). */
    public static long expectedTotal(long n) {
        return n * (n + 1) / 2;
    }

    /** One repetition of the calculatorSession workload, as the harness times calls: one sample per session. */
    public static long[] repetition(CalculatorClient c, long n, int calls, long minNanos, int maxCalls) throws Exception {
        long[] samples = new long[maxCalls];
        int made = 0;
        long first = System.nanoTime();
        long end = first;
        while (made < maxCalls && (made < calls || end - first < minNanos)) {
            long start = System.nanoTime();
            session(c, n);
            end = System.nanoTime();
            samples[made++] = end - start;
        }
        return made == samples.length ? samples : Arrays.copyOf(samples, made);
    }

    private static String expect(String call, long expected, long actual) {
        return expected == actual ? null : call + ": expected " + expected + ", actual " + actual;
    }

    private static String first(String... differences) {
        for (String d : differences) {
            if (d != null) {
                return d;
            }
        }
        return null;
    }
}
