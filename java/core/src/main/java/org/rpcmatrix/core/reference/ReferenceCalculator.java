package org.rpcmatrix.core.reference;

/**
 * The contract's calculator (CONTRACT.md#objects): an int64 total that wraps on overflow as two's complement.
 * Servers answer with it; the handler figure times it in process. Not thread-safe: one client drives a calculator.
 */
public final class ReferenceCalculator {
    private long total;

    public long add(long n) {
        total += n; // Java long addition wraps as two's complement, as the contract says
        return total;
    }

    public void clear() {
        total = 0;
    }

    public long total() {
        return total;
    }
}
