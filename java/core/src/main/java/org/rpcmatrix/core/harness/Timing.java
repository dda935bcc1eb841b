package org.rpcmatrix.core.harness;

import java.util.Arrays;
import java.util.List;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Operation;

/** The timed loops of the command loop: one repetition of back-to-back calls, batch medians, steadiness. */
final class Timing {
    private Timing() {
    }

    /**
     * One repetition: at least {@code calls} calls, then more until {@code minNanos} have passed since the first
     * began, never more than {@code maxCalls}. Each call is timed alone with the monotonic clock; answers are
     * not looked at. Returns one duration per call, in call order.
     */
    static long[] repetition(Bench target, Operation op, Object[] args, int calls, long minNanos, int maxCalls)
            throws Exception {
        long[] samples = new long[maxCalls];
        int made = 0;
        long first = System.nanoTime();
        long end = first;
        while (made < maxCalls && (made < calls || end - first < minNanos)) {
            long start = System.nanoTime();
            op.invoke(target, args);
            end = System.nanoTime();
            samples[made++] = end - start;
        }
        return made == samples.length ? samples : Arrays.copyOf(samples, made);
    }

    static long median(long[] samples) {
        if (samples.length == 0) {
            return 0;
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** Whether the last three medians are within {@code tolerance} of each other: (max - min) / min. */
    static boolean steady(List<Long> medians, double tolerance) {
        if (medians.size() < 3) {
            return false;
        }
        List<Long> last = medians.subList(medians.size() - 3, medians.size());
        long min = last.stream().mapToLong(Long::longValue).min().getAsLong();
        long max = last.stream().mapToLong(Long::longValue).max().getAsLong();
        if (min <= 0) {
            return max == min;
        }
        return (double) (max - min) / min <= tolerance;
    }
}
