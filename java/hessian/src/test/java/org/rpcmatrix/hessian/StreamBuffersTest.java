package org.rpcmatrix.hessian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The buffers under Hessian 1's and Burlap's readers and writers pass every byte on unchanged. */
class StreamBuffersTest {
    private static final int[] SIZES = {1, 0, 7, StreamBuffers.SIZE - 1, StreamBuffers.SIZE, 1, 3 * StreamBuffers.SIZE + 5, 2};

    @Test
    void writesEveryByteInOrderAndFlushesOnlyWhenAsked() throws IOException {
        byte[] data = new byte[5 * StreamBuffers.SIZE];
        new Random(1).nextBytes(data);
        int[] flushes = {0};
        ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void flush() {
                flushes[0]++;
            }
        };
        StreamBuffers.Out out = StreamBuffers.out(sink);
        int at = 0;
        for (int i = 0; at < data.length; i++) {
            if (i % 2 == 0) {
                out.write(data[at++]);
            } else {
                int n = Math.min(SIZES[i % SIZES.length], data.length - at);
                out.write(data, at, n);
                at += n;
            }
        }
        out.drain();
        assertEquals(0, flushes[0]);
        assertArrayEquals(data, sink.toByteArray());
        out.write(42);
        out.flush();
        assertEquals(1, flushes[0]);
        assertEquals(data.length + 1, sink.size());
    }

    @Test
    void readsEveryByteInOrderThroughShortReads() throws IOException {
        byte[] data = new byte[5 * StreamBuffers.SIZE + 3];
        new Random(2).nextBytes(data);
        // A stream that hands out at most 1,000 bytes per read, as a chunked HTTP body may.
        InputStream source = new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1000));
            }
        };
        InputStream in = StreamBuffers.in(source);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] chunk = new byte[4 * StreamBuffers.SIZE];
        for (int i = 0; ; i++) {
            if (i % 2 == 0) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                got.write(b);
            } else {
                int n = in.read(chunk, 0, SIZES[i % SIZES.length]);
                if (n < 0) {
                    break;
                }
                got.write(chunk, 0, n);
            }
        }
        assertArrayEquals(data, got.toByteArray());
        assertEquals(-1, in.read());
    }
}
