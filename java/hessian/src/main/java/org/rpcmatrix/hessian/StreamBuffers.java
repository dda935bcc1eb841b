package org.rpcmatrix.hessian;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Hessian 1's and Burlap's readers and writers (HessianInput, HessianOutput, BurlapInput, BurlapOutput) read and
 * write one byte at a time on the stream they are given, where Hessian 2's have their own 8 KiB buffers; on a
 * servlet's stream or HttpURLConnection's, every byte then costs a call through the container's or the
 * connection's stream (Jetty's HttpOutput.write(int), the JDK's synchronized ChunkedInputStream.read()). These
 * streams put the same 8 KiB between them: the bytes written and read are unchanged. Unlike java.io's
 * BufferedInputStream and BufferedOutputStream they take no lock per byte (each stream has one thread).
 */
final class StreamBuffers {
    /** Hessian2Output.SIZE. */
    static final int SIZE = 8 * 1024;

    private StreamBuffers() {
    }

    static In in(InputStream in) {
        return new In(in);
    }

    static Out out(OutputStream out) {
        return new Out(out);
    }

    /** A buffered input stream: reads of the stream under it are of up to {@link #SIZE} bytes. */
    static final class In extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[SIZE];
        private int pos;
        private int limit;

        In(InputStream in) {
            this.in = in;
        }

        private boolean fill() throws IOException {
            int n = in.read(buf, 0, SIZE);
            pos = 0;
            limit = Math.max(n, 0);
            return n > 0;
        }

        @Override
        public int read() throws IOException {
            if (pos == limit && !fill()) {
                return -1;
            }
            return buf[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int buffered = limit - pos;
            if (buffered == 0) {
                if (len >= SIZE) {
                    return in.read(b, off, len);
                }
                if (!fill()) {
                    return -1;
                }
                buffered = limit;
            }
            int n = Math.min(len, buffered);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return (limit - pos) + in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /**
     * A buffered output stream with java.io.BufferedOutputStream's behaviour (a write of at least {@link #SIZE}
     * bytes goes through unbuffered), which can also hand its bytes on without flushing the stream under it.
     */
    static final class Out extends OutputStream {
        private final OutputStream out;
        private final byte[] buf = new byte[SIZE];
        private int count;

        Out(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (count == SIZE) {
                drain();
            }
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len >= SIZE) {
                drain();
                out.write(b, off, len);
                return;
            }
            if (len > SIZE - count) {
                drain();
            }
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        /**
         * Writes the buffered bytes to the stream under it, without flushing it: a servlet's flush commits the
         * response as chunked, where a reply that fits in the container's buffer at the end carries a
         * Content-Length.
         */
        void drain() throws IOException {
            if (count > 0) {
                out.write(buf, 0, count);
                count = 0;
            }
        }

        @Override
        public void flush() throws IOException {
            drain();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            flush();
            out.close();
        }
    }
}
