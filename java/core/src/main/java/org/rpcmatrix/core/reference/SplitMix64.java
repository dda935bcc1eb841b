package org.rpcmatrix.core.reference;

/** The contract's generator (CONTRACT.md#generated-data). Not thread-safe: one per generated answer. */
public final class SplitMix64 {
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    public long next() {
        state += 0x9E3779B97F4A7C15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public double nextDouble() {
        return (next() >>> 11) * DOUBLE_UNIT;
    }

    /** {@code (next() >>> 1) mod n}: the shifted value is non-negative, so Java's % is the modulus. */
    public long below(long n) {
        return (next() >>> 1) % n;
    }

    public long signed64() {
        return next();
    }

    public int signed32() {
        return (int) (next() >>> 32);
    }

    public String word(int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET.charAt((int) below(ALPHABET.length()));
        }
        return new String(chars);
    }
}
