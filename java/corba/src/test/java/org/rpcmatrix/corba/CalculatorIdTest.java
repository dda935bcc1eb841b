package org.rpcmatrix.corba;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A calculator's id has one length and only digits, whichever calculator it is: its object key too. */
class CalculatorIdTest {
    @Test
    void everyIdIsSixteenDigits() {
        for (long n : new long[] {1, 9, 10, 47, 255, 256, 12_288, 1_000_000, 9_999_999_999_999_999L}) {
            byte[] id = CalculatorFactoryServant.calculatorId(n);
            assertEquals(16, id.length, "id of calculator " + n);
            for (byte b : id) {
                assertTrue(b >= '0' && b <= '9', "id of calculator " + n + " has a byte JacORB may escape: " + b);
            }
        }
        assertArrayEquals("0000000000000047".getBytes(StandardCharsets.US_ASCII),
                CalculatorFactoryServant.calculatorId(47));
    }
}
