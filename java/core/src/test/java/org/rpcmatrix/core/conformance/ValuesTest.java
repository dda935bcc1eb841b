package org.rpcmatrix.core.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.reference.SplitMix64;

/** Every value encoding form of CONTRACT.md#vectors. */
class ValuesTest {
    private static Object decode(String json, String type) throws Exception {
        JsonNode node = Json.MAPPER.readTree(json);
        return Values.decode(node, type);
    }

    @Test
    void booleansAndSmallIntegers() throws Exception {
        assertEquals(true, decode("true", "bool"));
        assertEquals((byte) -128, decode("-128", "int8"));
        assertEquals((short) 32767, decode("32767", "int16"));
        assertEquals(Integer.MIN_VALUE, decode("-2147483648", "int32"));
        assertThrows(IllegalArgumentException.class, () -> decode("128", "int8"));
        assertThrows(IllegalArgumentException.class, () -> decode("-32769", "int16"));
        assertThrows(IllegalArgumentException.class, () -> decode("2147483648", "int32"));
        assertThrows(IllegalArgumentException.class, () -> decode("1.5", "int32"));
        assertThrows(IllegalArgumentException.class, () -> decode("1", "bool"));
    }

    @Test
    void int64AndTimestampsAreDecimalStrings() throws Exception {
        assertEquals(Long.MIN_VALUE, decode("\"-9223372036854775808\"", "int64"));
        assertEquals(Long.MAX_VALUE, decode("\"9223372036854775807\"", "int64"));
        assertEquals(1000000000000L, decode("\"1000000000000\"", "timestamp"));
        assertThrows(IllegalArgumentException.class, () -> decode("\"9223372036854775808\"", "int64"));
        assertThrows(IllegalArgumentException.class, () -> decode("\"+5\"", "int64"));
        assertThrows(IllegalArgumentException.class, () -> decode("\"\u0661\"", "int64"));
    }

    @Test
    void float64Forms() throws Exception {
        assertEquals(3.141592653589793, decode("3.141592653589793", "float64"));
        assertEquals(0.1, decode("0.1", "float64"));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) decode("\"-0.0\"", "float64")));
        assertTrue(Double.isNaN((Double) decode("\"NaN\"", "float64")));
        assertEquals(Double.POSITIVE_INFINITY, decode("\"Infinity\"", "float64"));
        assertEquals(Double.NEGATIVE_INFINITY, decode("\"-Infinity\"", "float64"));
        assertEquals(Double.MIN_VALUE, decode("\"0x0000000000000001\"", "float64"));
        assertEquals(Double.MAX_VALUE, decode("\"0x7fefffffffffffff\"", "float64"));
        assertThrows(IllegalArgumentException.class, () -> decode("\"0x00000001\"", "float64"));
        assertThrows(IllegalArgumentException.class, () -> decode("\"1.5\"", "float64"));
    }

    @Test
    void float32Forms() throws Exception {
        assertEquals(1.5f, decode("1.5", "float32"));
        assertEquals(Float.MIN_VALUE, decode("\"0x00000001\"", "float32"));
        assertEquals(0.1f, decode("\"0x3dcccccd\"", "float32"));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits((Float) decode("\"-0.0\"", "float32")));
        assertTrue(Float.isNaN((Float) decode("\"NaN\"", "float32")));
        assertEquals(Float.NEGATIVE_INFINITY, decode("\"-Infinity\"", "float32"));
        // Just above the midpoint of 1.0f and its successor: rounded once, straight from the decimal, it goes up;
        // rounded through float64 first it would land on the midpoint and then tie to 1.0f.
        assertEquals(Math.nextUp(1.0f), decode("1.00000005960464477539062500000000001", "float32"));
        assertThrows(IllegalArgumentException.class, () -> decode("\"0x0000000000000001\"", "float32"));
    }

    @Test
    void strings() throws Exception {
        assertEquals("Grüße 𝄞", decode("\"Grüße 𝄞\"", "string"));
        assertEquals("abcab", decode("{\"repeat\": \"abc\", \"length\": 5}", "string"));
        String mib = (String) decode("{\"repeat\": \"rpcmatrix-1MiB-\", \"length\": 1048576}", "string");
        assertEquals(1048576, mib.length());
        assertTrue(mib.startsWith("rpcmatrix-1MiB-rpcmatrix"));
        assertThrows(IllegalArgumentException.class, () -> decode("5", "string"));
    }

    @Test
    void bytes() throws Exception {
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) decode("{\"base64\": \"AQID\"}", "bytes"));
        assertArrayEquals(new byte[0], (byte[]) decode("{\"base64\": \"\"}", "bytes"));
        byte[] all = (byte[]) decode("{\"allByteValues\": true}", "bytes");
        assertEquals(256, all.length);
        assertEquals((byte) 0xFF, all[255]);
        byte[] random = (byte[]) decode("{\"randomBytes\": {\"count\": 20, \"seed\": 11}}", "bytes");
        assertEquals("nTCAI31k9VChE2t60lwqQ20Sm24=", Base64.getEncoder().encodeToString(random));
    }

    @Test
    void randomBytesAreLittleEndianWords() {
        long first = new SplitMix64(0).next();
        byte[] bytes = Values.randomBytes(3, 0);
        assertArrayEquals(new byte[] {(byte) first, (byte) (first >>> 8), (byte) (first >>> 16)}, bytes);
    }

    @Test
    void float64Arrays() throws Exception {
        assertArrayEquals(new double[] {1.0, 2.0, 4.5}, (double[]) decode("[1.0, 2.0, 4.5]", "float64[]"));
        assertArrayEquals(new double[0], (double[]) decode("[]", "float64[]"));
        double[] random = (double[]) decode("{\"randomDoubles\": {\"count\": 2, \"seed\": 3, \"offset\": 1.0}}", "float64[]");
        SplitMix64 rng = new SplitMix64(3);
        assertArrayEquals(new double[] {1.0 + rng.nextDouble(), 1.0 + rng.nextDouble()}, random);
        double[] noOffset = (double[]) decode("{\"randomDoubles\": {\"count\": 1, \"seed\": \"1\"}}", "float64[]");
        assertArrayEquals(new double[] {new SplitMix64(1).nextDouble()}, noOffset);
    }
}
