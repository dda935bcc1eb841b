package org.rpcmatrix.core.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The reference values of CONTRACT.md#generated-data. */
class GeneratorTest {
    @Test
    void splitMix64FromZero() {
        SplitMix64 rng = new SplitMix64(0);
        assertEquals(0xE220A8397B1DCDAFL, rng.next());
        assertEquals(0x6E789E6AA1B965F4L, rng.next());
    }

    @Test
    void fnv1a64() {
        assertEquals(0xCBF29CE484222325L, Fnv1a64.hashUtf8(""));
        assertEquals(0xAF63DC4C8601EC8CL, Fnv1a64.hashUtf8("a"));
    }

    @Test
    void nextDoubleTakesTheTop53Bits() {
        double expected = (0xE220A8397B1DCDAFL >>> 11) * 0x1.0p-53;
        assertEquals(expected, new SplitMix64(0).nextDouble());
    }

    @Test
    void signed32IsTheHighHalf() {
        assertEquals((int) 0xE220A839L, new SplitMix64(0).signed32());
    }

    @Test
    void belowUsesTheValueShiftedRightOnce() {
        assertEquals((0xE220A8397B1DCDAFL >>> 1) % 62, new SplitMix64(0).below(62));
    }

    @Test
    void wordDrawsFromTheAlphabet() {
        String word = new SplitMix64(99).word(200);
        assertEquals(200, word.length());
        assertEquals(true, word.chars().allMatch(Character::isLetterOrDigit));
    }
}
