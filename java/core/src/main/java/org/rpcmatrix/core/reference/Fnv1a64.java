package org.rpcmatrix.core.reference;

import java.nio.charset.StandardCharsets;

/** FNV-1a, 64 bits: turns a key or query into a {@link SplitMix64} seed. */
public final class Fnv1a64 {
    private static final long OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long PRIME = 0x100000001B3L;

    private Fnv1a64() {
    }

    public static long hash(byte[] bytes) {
        long h = OFFSET_BASIS;
        for (byte b : bytes) {
            h = (h ^ (b & 0xFF)) * PRIME;
        }
        return h;
    }

    public static long hashUtf8(String text) {
        return hash(text.getBytes(StandardCharsets.UTF_8));
    }
}
