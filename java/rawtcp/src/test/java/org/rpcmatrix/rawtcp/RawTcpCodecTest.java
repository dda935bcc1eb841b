package org.rpcmatrix.rawtcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.conformance.Comparison;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.reference.ReferenceBench;

/** The byte layout of idl/rawtcp.md. */
class RawTcpCodecTest {
    private static String hex(String type, Object value) {
        RawTcpCodec.Writer writer = new RawTcpCodec.Writer();
        writer.value(type, value);
        return HexFormat.of().formatHex(writer.body());
    }

    private static Object roundTrip(String type, Object value) {
        RawTcpCodec.Writer writer = new RawTcpCodec.Writer();
        writer.value(type, value);
        RawTcpCodec.Reader reader = new RawTcpCodec.Reader(writer.body());
        Object back = reader.value(type);
        reader.expectEnd();
        return back;
    }

    @Test
    void scalarsAreBigEndian() {
        assertEquals("01", hex("bool", true));
        assertEquals("80", hex("int8", (byte) -128));
        assertEquals("fffe", hex("int16", (short) -2));
        assertEquals("80000000", hex("int32", Integer.MIN_VALUE));
        assertEquals("0000000100000000", hex("int64", 4294967296L));
        assertEquals("3fc00000", hex("float32", 1.5f));
        assertEquals("8000000000000000", hex("float64", -0.0));
        assertEquals("", hex("void", null));
    }

    @Test
    void sequencesHaveAU32Count() {
        assertEquals("00000002c3a9", hex("string", "é"));
        assertEquals("00000003010203", hex("bytes", new byte[] {1, 2, 3}));
        assertEquals("000000013ff0000000000000", hex("float64[]", new double[] {1.0}));
    }

    @Test
    void structsAreTheirFieldsInOrder() {
        Record record = new Record(-1, List.of("a"), new double[] {2.0});
        assertEquals("ffffffffffffffff" + "00000001" + "0000000161" + "00000001" + "4000000000000000",
                hex("Record", record));
    }

    @Test
    void everyTypeRoundTrips() throws Exception {
        ReferenceBench bench = new ReferenceBench();
        Object[][] cases = {
            {"bool", false}, {"int8", (byte) 127}, {"int16", (short) -32768}, {"int32", 7}, {"int64", Long.MIN_VALUE},
            {"float32", Float.MIN_VALUE}, {"float64", Double.NaN}, {"string", "𝄞 a\rb\u0000"},
            {"bytes", new byte[] {(byte) 0xFF, 0}}, {"float64[]", new double[] {0.1, -0.0}},
            {"Record", bench.getRecord("k")}, {"Book[]", bench.searchBooks("q", 20)}, {"Item[]", bench.getItems(20)},
        };
        for (Object[] c : cases) {
            Object back = roundTrip((String) c[0], c[1]);
            assertTrue(Comparison.EXACT.firstDifference("v", c[1], back).isEmpty(), (String) c[0]);
        }
        Item item = (Item) ((List<?>) roundTrip("Item[]", bench.getItems(1))).get(0);
        assertEquals(bench.getItems(1).get(0), item);
    }

    @Test
    void malformedBodiesAreRejected() {
        assertThrows(RawTcpCodec.MalformedFrameException.class, () -> new RawTcpCodec.Reader(new byte[] {0, 0}).i32());
        assertThrows(RawTcpCodec.MalformedFrameException.class,
                () -> new RawTcpCodec.Reader(new byte[] {0, 0, 0, 9, 'a'}).string(), "count beyond the frame");
        assertThrows(RawTcpCodec.MalformedFrameException.class, () -> new RawTcpCodec.Reader(new byte[] {2}).bool());
        RawTcpCodec.Reader trailing = new RawTcpCodec.Reader(new byte[] {1, 0});
        trailing.bool();
        assertThrows(RawTcpCodec.MalformedFrameException.class, trailing::expectEnd);
    }

    @Test
    void framesAreLengthPrefixed() throws Exception {
        RawTcpCodec.Writer writer = new RawTcpCodec.Writer();
        writer.i16(8);
        writer.string("hi");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.writeTo(out);
        assertEquals("00000008" + "0008" + "00000002" + "6869", HexFormat.of().formatHex(out.toByteArray()));
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(out.toByteArray()));
        assertArrayEquals(writer.body(), RawTcpCodec.readFrame(in));
        assertNull(RawTcpCodec.readFrame(in), "clean end of stream");
    }

    @Test
    void framesOver64MiBAreRefused() {
        byte[] header = {0x04, 0x00, 0x00, 0x01};
        assertThrows(RawTcpCodec.FrameTooLargeException.class,
                () -> RawTcpCodec.readFrame(new DataInputStream(new ByteArrayInputStream(header))));
    }

    /** A peer that declares 64 MiB and sends 16 bytes costs the reader about the upfront megabyte, not 64 MiB. */
    @Test
    void aDeclaredLengthIsNotAllocatedBeforeItsBytesArrive() {
        byte[] frame = new byte[4 + 16];
        frame[0] = 0x04; // 64 MiB exactly, the largest frame allowed
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThrows(java.io.EOFException.class,
                () -> RawTcpCodec.readFrame(new DataInputStream(new ByteArrayInputStream(frame))));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // The one upfront array, and beside it only the stream, the EOFException and its stack trace (about 41 KiB
        // on OpenJDK 17): a second reservation, or any growth of the array, would double it.
        assertTrue(allocated >= RawTcpCodec.UPFRONT_BYTES && allocated < 2 * RawTcpCodec.UPFRONT_BYTES,
                allocated + " bytes allocated");
    }

    /** A frame larger than the upfront reservation still reads back whole, the array grown as bytes come. */
    @Test
    void aLargeFrameGrowsAsItsBytesCome() throws Exception {
        byte[] body = new byte[3 * RawTcpCodec.UPFRONT_BYTES + 5];
        new java.util.Random(7).nextBytes(body);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (body.length >>> 16), (byte) (body.length >>> 8), (byte) body.length});
        out.write(body);
        assertArrayEquals(body, RawTcpCodec.readFrame(new DataInputStream(new ByteArrayInputStream(out.toByteArray()))));
    }
}
