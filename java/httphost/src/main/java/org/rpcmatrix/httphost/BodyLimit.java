package org.rpcmatrix.httphost;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ReadListener;
import javax.servlet.ServletException;
import javax.servlet.ServletInputStream;
import javax.servlet.ServletOutputStream;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpServletResponseWrapper;

/**
 * The contract's message limit (idl/CONTRACT.md, Limits) on every request body the host serves: no message over
 * 64 MiB, counted after any decompression, refused with HTTP 413.
 * <ul>
 * <li>A body declared longer (Content-Length) is answered 413 before any of it is read (Jetty sends no
 * {@code 100 Continue} either), and the connection closes.</li>
 * <li>A body without a declared length (chunked) is counted as the servlet reads it: the read that passes the
 * limit fails, and the answer is 413, whatever the servlet then does: libraries turn a failed read into a fault
 * of their own, an empty answer or an exception, so until the servlet returns its answer is held back (written
 * to nothing) and replaced by the 413.</li>
 * <li>A compressed body (Content-Encoding) is held back the same way, and a servlet that decompresses it counts
 * the decompressed bytes with {@link #bounded}.</li>
 * </ul>
 * A body with a declared length within the limit and no Content-Encoding, every call of the suite's clients but
 * the gzip variants', passes untouched (Jetty never delivers more than the declared length): the cost is two
 * header reads, no wrapper and no copy. No servlet of the host reserves memory by a declared size.
 */
public final class BodyLimit implements Filter {
    /** 64 MiB: no message of the contract needs more (its largest is a few MiB in its most verbose encoding). */
    public static final long MAX_BYTES = 64L << 20;

    /** The request attribute that holds a guarded request's {@link Guard}. */
    private static final String GUARD = BodyLimit.class.getName();

    /** The read that took a body over the limit; the answer will be 413. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message);
        }
    }

    /** One guarded request: why it went over the limit, once it has. */
    private static final class Guard {
        volatile String over;
    }

    @Override
    public void init(FilterConfig config) {
    }

    @Override
    public void destroy() {
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        long declared = request.getContentLengthLong();
        if (declared > MAX_BYTES) {
            refuse(response, "request body of " + declared + " bytes declared, over the limit of " + MAX_BYTES);
            return;
        }
        if (declared >= 0 && request.getHeader("Content-Encoding") == null) {
            chain.doFilter(request, response);
            return;
        }
        Guard guard = new Guard();
        request.setAttribute(GUARD, guard);
        try {
            chain.doFilter(declared < 0 ? new CountedRequest(request, guard) : request, new HeldResponse(response, guard));
        } catch (IOException | ServletException | RuntimeException e) {
            if (guard.over == null) {
                throw e;
            }
        }
        if (guard.over != null && !response.isCommitted()) {
            response.reset();
            refuse(response, guard.over);
        }
    }

    /**
     * {@code in}, a decompressed body of {@code request}, cut at the limit: the read that passes it fails with
     * {@link TooLarge}, and the host answers 413 in place of whatever the servlet writes.
     */
    public static InputStream bounded(InputStream in, ServletRequest request) {
        Guard guard = request.getAttribute(GUARD) instanceof Guard g ? g : new Guard();
        Budget budget = new Budget(guard, "request body over the limit of " + MAX_BYTES + " bytes once decompressed");
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                budget.spend(b >= 0 ? 1 : 0);
                return b;
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                int n = super.read(bytes, offset, length);
                budget.spend(n);
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(n);
                budget.spend(skipped);
                return skipped;
            }
        };
    }

    private static void refuse(HttpServletResponse response, String reason) throws IOException {
        response.setHeader("Connection", "close");
        response.sendError(413, reason);
    }

    /** The bytes one body may still deliver. */
    private static final class Budget {
        private final Guard guard;
        private final String reason;
        private long left = MAX_BYTES;

        Budget(Guard guard, String reason) {
            this.guard = guard;
            this.reason = reason;
        }

        void spend(long n) throws TooLarge {
            if (n > 0) {
                left -= n;
                if (left < 0) {
                    guard.over = reason;
                    throw new TooLarge(reason);
                }
            }
        }
    }

    /** A request whose body has no declared length: its stream counted against the limit. */
    private static final class CountedRequest extends HttpServletRequestWrapper {
        private final Guard guard;
        private ServletInputStream counted;

        CountedRequest(HttpServletRequest request, Guard guard) {
            super(request);
            this.guard = guard;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (counted == null) {
                counted = new CountedInput(super.getInputStream(),
                        new Budget(guard, "request body over the limit of " + MAX_BYTES + " bytes"));
            }
            return counted;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(getInputStream(), encoding == null ? "ISO-8859-1" : encoding));
        }
    }

    private static final class CountedInput extends ServletInputStream {
        private final ServletInputStream in;
        private final Budget budget;

        CountedInput(ServletInputStream in, Budget budget) {
            this.in = in;
            this.budget = budget;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            budget.spend(b >= 0 ? 1 : 0);
            return b;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            int n = in.read(bytes, offset, length);
            budget.spend(n);
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = in.skip(n);
            budget.spend(skipped);
            return skipped;
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }

    /**
     * The response of a guarded request: as the servlet writes it, until its body goes over the limit; from then
     * on nothing it writes, flushes or closes reaches the peer, so that the host can answer 413 instead.
     */
    private static final class HeldResponse extends HttpServletResponseWrapper {
        private final Guard guard;
        private ServletOutputStream out;
        private PrintWriter writer;

        HeldResponse(HttpServletResponse response, Guard guard) {
            super(response);
            this.guard = guard;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (out == null) {
                out = new HeldOutput(super.getOutputStream(), guard);
            }
            return out;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (writer == null) {
                writer = new PrintWriter(new OutputStreamWriter(getOutputStream(), getCharacterEncoding()));
            }
            return writer;
        }

        @Override
        public void flushBuffer() throws IOException {
            if (guard.over == null) {
                super.flushBuffer();
            }
        }

        @Override
        public void sendError(int status, String message) throws IOException {
            if (guard.over == null) {
                super.sendError(status, message);
            }
        }

        @Override
        public void sendError(int status) throws IOException {
            if (guard.over == null) {
                super.sendError(status);
            }
        }
    }

    private static final class HeldOutput extends ServletOutputStream {
        private final ServletOutputStream out;
        private final Guard guard;

        HeldOutput(ServletOutputStream out, Guard guard) {
            this.out = out;
            this.guard = guard;
        }

        @Override
        public void write(int b) throws IOException {
            if (guard.over == null) {
                out.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (guard.over == null) {
                out.write(bytes, offset, length);
            }
        }

        @Override
        public void flush() throws IOException {
            if (guard.over == null) {
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (guard.over == null) {
                out.close();
            }
        }

        @Override
        public boolean isReady() {
            return out.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            out.setWriteListener(listener);
        }
    }
}
