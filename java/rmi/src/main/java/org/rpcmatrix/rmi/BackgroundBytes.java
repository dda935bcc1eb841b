package org.rpcmatrix.rmi;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes RMI's distributed GC sends and receives on the client's connections. Its clean calls (after a
 * collection finds a stub unreachable) and lease renewals run on the JDK's "RMI RenewClean-[host:port]"
 * threads, over the same pooled connections as the calls, so they are told apart by the thread that reads
 * or writes: a count then knows how much of its payload the collector's timing put there. The dirty call that
 * registers a new remote reference runs on the calling thread, inside the call that received it, and stays
 * the call's. The counted streams sit under TLS, so the figures are TCP payload, as the wire counters see it.
 */
final class BackgroundBytes {
    private static final AtomicLong SENT = new AtomicLong();
    private static final AtomicLong RECEIVED = new AtomicLong();
    /** Whether the current thread is the distributed GC's (asked once per thread: the calls pay a lookup). */
    private static final ThreadLocal<Boolean> COLLECTOR_THREAD =
            ThreadLocal.withInitial(() -> Thread.currentThread().getName().startsWith("RMI RenewClean-"));

    private BackgroundBytes() {
    }

    /** {sent, received} so far, over every counted socket of this process. */
    static long[] soFar() {
        return new long[] {SENT.get(), RECEIVED.get()};
    }

    /** An unconnected socket whose streams count what the distributed GC's threads move through them. */
    static Socket countedSocket() {
        return new Socket() {
            @Override
            public InputStream getInputStream() throws IOException {
                return new Counted(super.getInputStream());
            }

            @Override
            public OutputStream getOutputStream() throws IOException {
                return new CountedOut(super.getOutputStream());
            }
        };
    }

    private static final class Counted extends FilterInputStream {
        Counted(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && COLLECTOR_THREAD.get()) {
                RECEIVED.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0 && COLLECTOR_THREAD.get()) {
                RECEIVED.addAndGet(n);
            }
            return n;
        }
    }

    private static final class CountedOut extends FilterOutputStream {
        CountedOut(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            if (COLLECTOR_THREAD.get()) {
                SENT.incrementAndGet();
            }
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            out.write(buffer, offset, length);
            if (COLLECTOR_THREAD.get()) {
                SENT.addAndGet(length);
            }
        }
    }
}
