package org.rpcmatrix.httphost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.httphost.RawHttp.Answer;

/**
 * The host's request body limit (idl/CONTRACT.md, Limits: no message over 64 MiB): a body declared longer is
 * answered 413 before it is read, a chunked one is cut at the limit with 413, a decompressed one too, and the
 * server serves the next call. The servlet behind swallows a failed read and answers 200, as libraries do: the
 * 413 must still be what the peer gets.
 */
class BodyLimitTest {
    private static final int MIB = 1 << 20;
    private static HttpHost host;

    /** Reads the whole body and answers its length; a failed read is answered 200 "failed", not rethrown. */
    private static final class Counting extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final boolean gzip;

        Counting(boolean gzip) {
            this.gzip = gzip;
        }

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String answer;
            try {
                InputStream in = gzip ? BodyLimit.bounded(new GZIPInputStream(request.getInputStream()), request)
                        : request.getInputStream();
                long n = in.transferTo(OutputStream.nullOutputStream());
                answer = "read " + n;
            } catch (IOException e) {
                answer = "failed " + e.getMessage();
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            response.setContentType("text/plain");
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
    }

    /** Reads the whole body and lets a failed read out, as Hessian's servlet does (a ServletException). */
    private static final class Rethrowing extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            request.getInputStream().transferTo(OutputStream.nullOutputStream());
            response.setContentLength(0);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        host = HttpHost.start("127.0.0.1", 0, "test", Map.of("/count", new Counting(false), "/gunzip", new Counting(true),
                "/rethrow", new Rethrowing()));
    }

    @AfterAll
    static void stop() throws Exception {
        host.stop();
    }

    @Test
    void aBodyDeclaredOverTheLimitIsRefusedBeforeItIsRead() throws Exception {
        Answer answer = exchange(out -> {
            out.write(("POST /count HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: "
                    + (4L << 30) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[1024]);
        });
        assertEquals(413, answer.status(), answer.text());
        assertServes();
    }

    @Test
    void aChunkedBodyIsCutAtTheLimit() throws Exception {
        Answer answer = chunked("/count", new byte[MIB], 65);
        assertEquals(413, answer.status(), answer.text());
        assertFalse(answer.text().contains("read "), answer.text());
        assertServes();
    }

    @Test
    void aChunkedBodyIsCutAtTheLimitWhenTheServletLetsTheFailureOut() throws Exception {
        Answer answer = chunked("/rethrow", new byte[MIB], 65);
        assertEquals(413, answer.status(), answer.text());
        assertServes();
    }

    @Test
    void aChunkedBodyWithinTheLimitIsRead() throws Exception {
        Answer answer = chunked("/count", new byte[MIB], 3);
        assertEquals(200, answer.status(), answer.text());
        assertEquals("read " + 3 * MIB, answer.text());
    }

    @Test
    void aDecompressedBodyIsCutAtTheLimit() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            byte[] zeros = new byte[MIB];
            for (int i = 0; i < 65; i++) {
                gzip.write(zeros);
            }
        }
        byte[] body = zipped.toByteArray();
        assertTrue(body.length < MIB, "a gzip bomb: " + body.length + " bytes");
        Answer answer = exchange(out -> {
            out.write(("POST /gunzip HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        });
        assertEquals(413, answer.status(), answer.text());
        assertServes();
    }

    /** {@code count} chunks of {@code chunk} as a chunked body, written while the answer is read. */
    private static Answer chunked(String path, byte[] chunk, int count) throws Exception {
        return exchange(out -> {
            out.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < count; i++) {
                out.write(size);
                out.write(chunk);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        });
    }

    private static Answer exchange(RawHttp.Request request) throws Exception {
        return RawHttp.exchange(host.port(), request);
    }

    private static void assertServes() throws Exception {
        Answer answer = chunked("/count", "abc".getBytes(StandardCharsets.US_ASCII), 2);
        assertEquals(200, answer.status(), answer.text());
        assertEquals("read 6", answer.text());
    }
}
