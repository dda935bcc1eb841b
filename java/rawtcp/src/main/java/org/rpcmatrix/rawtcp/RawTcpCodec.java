package org.rpcmatrix.rawtcp;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

/**
 * The wire format of idl/rawtcp.md: length-prefixed frames, big-endian values, selected by contract type name.
 */
final class RawTcpCodec {
    /** A frame over 64 MiB is a protocol error: the receiver closes the connection. */
    static final int MAX_FRAME_BYTES = 64 << 20;

    static final int STATUS_OK = 0;
    static final int STATUS_BENCH_ERROR = 1;
    static final int STATUS_OTHER_ERROR = 2;

    private RawTcpCodec() {
    }

    /** Reads one frame body; null on a clean end of stream before the frame. */
    static byte[] readFrame(DataInputStream in) throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        long length = ((long) first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedShort());
        if (length > MAX_FRAME_BYTES) {
            throw new FrameTooLargeException(length);
        }
        return readBody(in, (int) length);
    }

    /**
     * The most a frame's declared length reserves before its bytes arrive: every frame of the contract's workloads
     * fits (the largest, 50,000 float64, is 400 KB), so they are read into one array as before; a larger declared
     * length grows the array only as its bytes come, so a peer that declares 64 MiB and sends nothing costs this.
     */
    static final int UPFRONT_BYTES = 1 << 20;

    private static byte[] readBody(DataInputStream in, int length) throws IOException {
        byte[] body = new byte[Math.min(length, UPFRONT_BYTES)];
        int filled = 0;
        while (true) {
            in.readFully(body, filled, body.length - filled);
            filled = body.length;
            if (filled == length) {
                return body;
            }
            body = java.util.Arrays.copyOf(body, (int) Math.min(length, 2L * filled));
        }
    }

    /** A frame longer than {@link #MAX_FRAME_BYTES}. */
    static final class FrameTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        FrameTooLargeException(long length) {
            super("frame of " + length + " bytes is over the " + MAX_FRAME_BYTES + "-byte limit");
        }
    }

    /** Builds one frame: the length is filled in by {@link #writeTo}, which writes the frame in one piece. */
    static final class Writer {
        private byte[] buf = new byte[256];
        private int size = 4;

        void reset() {
            size = 4;
        }

        void writeTo(OutputStream out) throws IOException {
            int length = size - 4;
            if (length > MAX_FRAME_BYTES) {
                throw new FrameTooLargeException(length);
            }
            buf[0] = (byte) (length >>> 24);
            buf[1] = (byte) (length >>> 16);
            buf[2] = (byte) (length >>> 8);
            buf[3] = (byte) length;
            out.write(buf, 0, size);
            out.flush();
        }

        /** The frame body written so far (for tests). */
        byte[] body() {
            return Arrays.copyOfRange(buf, 4, size);
        }

        private void ensure(int more) {
            if (buf.length - size < more) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        void u8(int v) {
            ensure(1);
            buf[size++] = (byte) v;
        }

        void i16(int v) {
            ensure(2);
            buf[size++] = (byte) (v >>> 8);
            buf[size++] = (byte) v;
        }

        void i32(int v) {
            ensure(4);
            buf[size++] = (byte) (v >>> 24);
            buf[size++] = (byte) (v >>> 16);
            buf[size++] = (byte) (v >>> 8);
            buf[size++] = (byte) v;
        }

        void i64(long v) {
            i32((int) (v >>> 32));
            i32((int) v);
        }

        void f64(double v) {
            i64(Double.doubleToRawLongBits(v));
        }

        void bytes(byte[] v) {
            i32(v.length);
            ensure(v.length);
            System.arraycopy(v, 0, buf, size, v.length);
            size += v.length;
        }

        void string(String v) {
            bytes(v.getBytes(StandardCharsets.UTF_8));
        }

        void strings(List<String> v) {
            i32(v.size());
            for (String s : v) {
                string(s);
            }
        }

        /** The count, then every value in one bulk copy through a big-endian DoubleBuffer view. */
        void doubles(double[] v) {
            i32(v.length);
            int bytes = 8 * v.length;
            ensure(bytes);
            ByteBuffer.wrap(buf, size, bytes).asDoubleBuffer().put(v);
            size += bytes;
        }

        /** Writes {@code value} as the contract type {@code type}. */
        void value(String type, Object value) {
            switch (type) {
                case "void":
                    break;
                case "bool":
                    u8((Boolean) value ? 1 : 0);
                    break;
                case "int8":
                    u8((Byte) value);
                    break;
                case "int16":
                    i16((Short) value);
                    break;
                case "int32":
                    i32((Integer) value);
                    break;
                case "int64":
                case "timestamp":
                    i64((Long) value);
                    break;
                case "float32":
                    i32(Float.floatToRawIntBits((Float) value));
                    break;
                case "float64":
                    f64((Double) value);
                    break;
                case "string":
                    string((String) value);
                    break;
                case "bytes":
                    bytes((byte[]) value);
                    break;
                case "float64[]":
                    doubles((double[]) value);
                    break;
                case "Record":
                    record((Record) value);
                    break;
                case "Book[]":
                    books(asList(value));
                    break;
                case "Item[]":
                    items(asList(value));
                    break;
                default:
                    throw new IllegalArgumentException("rawtcp cannot carry type " + type);
            }
        }

        private void record(Record r) {
            i64(r.id());
            strings(r.tags());
            doubles(r.values());
        }

        private void books(List<Book> books) {
            i32(books.size());
            for (Book b : books) {
                string(b.title());
                strings(b.authors());
                f64(b.price());
                f64(b.listPrice());
                string(b.publisher());
                i32(b.year());
                i32(b.month());
                strings(b.keywords());
                string(b.isbn());
                i32(b.starRating());
                string(b.url());
            }
        }

        private void items(List<Item> items) {
            i32(items.size());
            for (Item it : items) {
                i64(it.id());
                string(it.title());
                string(it.description());
                string(it.category());
                string(it.owner());
                i64(it.created());
                i64(it.updated());
                i32(it.quantity());
                f64(it.price());
                i32(Float.floatToRawIntBits(it.weight()));
            }
        }

        @SuppressWarnings("unchecked")
        private static <T> List<T> asList(Object value) {
            return (List<T>) value;
        }
    }

    /** Reads values from one frame body; a short or malformed body is a {@link MalformedFrameException}. */
    static final class Reader {
        private final ByteBuffer in;

        Reader(byte[] body) {
            this.in = ByteBuffer.wrap(body);
        }

        int u8() {
            need(1);
            return in.get() & 0xFF;
        }

        int u16() {
            need(2);
            return in.getShort() & 0xFFFF;
        }

        int i32() {
            need(4);
            return in.getInt();
        }

        long i64() {
            need(8);
            return in.getLong();
        }

        double f64() {
            need(8);
            return in.getDouble();
        }

        float f32() {
            need(4);
            return in.getFloat();
        }

        private void need(int bytes) {
            if (in.remaining() < bytes) {
                throw new MalformedFrameException("frame ends in the middle of a value");
            }
        }

        /** A u32 count of elements of at least {@code minBytes} each, checked against what is left. */
        int count(int minBytes) {
            long count = i32() & 0xFFFFFFFFL;
            if (count * minBytes > in.remaining()) {
                throw new MalformedFrameException("count " + count + " exceeds the " + in.remaining() + " bytes left");
            }
            return (int) count;
        }

        byte[] bytes() {
            byte[] v = new byte[count(1)];
            in.get(v);
            return v;
        }

        String string() {
            int length = count(1);
            String v = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
            in.position(in.position() + length);
            return v;
        }

        List<String> strings() {
            int n = count(4);
            List<String> v = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                v.add(string());
            }
            return v;
        }

        /** The count, then every value in one bulk copy through a big-endian DoubleBuffer view. */
        double[] doubles() {
            double[] v = new double[count(8)];
            in.asDoubleBuffer().get(v);
            in.position(in.position() + 8 * v.length);
            return v;
        }

        boolean bool() {
            int b = u8();
            if (b > 1) {
                throw new MalformedFrameException("bool byte " + b + " is neither 0 nor 1");
            }
            return b == 1;
        }

        /** Reads a value of the contract type {@code type}; null for void. */
        Object value(String type) {
            switch (type) {
                case "void":
                    return null;
                case "bool":
                    return bool();
                case "int8":
                    return (byte) u8();
                case "int16":
                    return (short) u16();
                case "int32":
                    return i32();
                case "int64":
                case "timestamp":
                    return i64();
                case "float32":
                    return f32();
                case "float64":
                    return f64();
                case "string":
                    return string();
                case "bytes":
                    return bytes();
                case "float64[]":
                    return doubles();
                case "Record":
                    return new Record(i64(), strings(), doubles());
                case "Book[]":
                    return books();
                case "Item[]":
                    return items();
                default:
                    throw new IllegalArgumentException("rawtcp cannot carry type " + type);
            }
        }

        private List<Book> books() {
            int n = count(1);
            List<Book> books = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                books.add(new Book(string(), strings(), f64(), f64(), string(), i32(), i32(), strings(), string(), i32(),
                        string()));
            }
            return books;
        }

        private List<Item> items() {
            int n = count(1);
            List<Item> items = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                items.add(new Item(i64(), string(), string(), string(), string(), i64(), i64(), i32(), f64(), f32()));
            }
            return items;
        }

        /** The body must end here: trailing bytes mean sender and receiver disagree on the types. */
        void expectEnd() {
            if (in.hasRemaining()) {
                throw new MalformedFrameException(in.remaining() + " unexpected trailing bytes");
            }
        }
    }

    /** A frame body that does not hold what its operation says. */
    static final class MalformedFrameException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedFrameException(String message) {
            super(message);
        }
    }
}
