package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.conformance.Comparison;
import org.rpcmatrix.core.reference.ReferenceBench;

/** CONTRACT.md#carriage for XML-RPC: what travels as what, and what the receiver refuses. */
class XmlRpcMappingTest {
    private static void refused(String type, Object wire) {
        assertThrows(XmlRpcMapping.CarriageException.class, () -> XmlRpcMapping.fromWire(type, wire),
                type + " " + wire);
    }

    @Test
    void int64AndTimestampsTravelAsDecimalStrings() {
        assertEquals("-9223372036854775808", XmlRpcMapping.toWire("int64", Long.MIN_VALUE));
        assertEquals("1000000000000", XmlRpcMapping.toWire("timestamp", 1000000000000L));
        assertEquals(Long.MAX_VALUE, XmlRpcMapping.fromWire("int64", "9223372036854775807"));
        assertEquals(-42L, XmlRpcMapping.fromWire("int64", "-42"));
        refused("int64", "9223372036854775808");
        refused("int64", "+5");
        refused("int64", "12a");
        refused("int64", "");
        refused("int64", "\u0661");
        refused("int64", 5);
        refused("timestamp", 5.0);
    }

    @Test
    void smallIntegersTravelAsRangeCheckedInts() {
        assertEquals(-128, XmlRpcMapping.toWire("int8", (byte) -128));
        assertEquals((byte) 127, XmlRpcMapping.fromWire("int8", 127));
        assertEquals((short) -32768, XmlRpcMapping.fromWire("int16", -32768));
        refused("int8", 128);
        refused("int8", -129);
        refused("int16", 32768);
        refused("int32", "1");
    }

    @Test
    void float32TravelsAsADoubleThatMustBeExactlyAFloat32() {
        assertEquals(0.10000000149011612, XmlRpcMapping.toWire("float32", 0.1f));
        assertEquals(Float.MIN_VALUE, XmlRpcMapping.fromWire("float32", (double) Float.MIN_VALUE));
        assertEquals(Float.MAX_VALUE, XmlRpcMapping.fromWire("float32", (double) Float.MAX_VALUE));
        refused("float32", 0.1);
        refused("float32", Double.MAX_VALUE);
        refused("float32", Double.MIN_VALUE);
    }

    @Test
    void voidTravelsAsTrue() {
        assertEquals(Boolean.TRUE, XmlRpcMapping.toWire("void", null));
        assertNull(XmlRpcMapping.fromWire("void", Boolean.TRUE));
        refused("void", Boolean.FALSE);
        refused("void", "");
    }

    @Test
    void arraysAndStructsRoundTrip() throws Exception {
        ReferenceBench bench = new ReferenceBench();
        Object[][] cases = {
            {"float64[]", new double[] {0.5, -0.0, Double.MIN_VALUE}}, {"Record", bench.getRecord("k")},
            {"Book[]", bench.searchBooks("q", 10)}, {"Item[]", bench.getItems(10)}, {"bytes", new byte[] {0, -1}},
        };
        for (Object[] c : cases) {
            Object back = XmlRpcMapping.fromWire((String) c[0], XmlRpcMapping.toWire((String) c[0], c[1]));
            assertTrue(Comparison.EXACT.firstDifference("v", c[1], back).isEmpty(), (String) c[0]);
        }
        assertArrayEquals(new Object[] {1.0, 2.0}, (Object[]) XmlRpcMapping.toWire("float64[]", new double[] {1, 2}));
    }

    @Test
    void structMembersUseContractNamesAndAreChecked() {
        @SuppressWarnings("unchecked")
        Map<String, Object> record = (Map<String, Object>) XmlRpcMapping.toWire("Record", new ReferenceBench().getRecord(""));
        assertEquals(List.of("id", "tags", "values"), List.copyOf(record.keySet()));
        assertTrue(record.get("id") instanceof String);
        record.remove("tags");
        refused("Record", record);
        refused("Item[]", new Object[] {Map.of("id", "1")});
        refused("float64[]", new Object[] {1});
    }
}
