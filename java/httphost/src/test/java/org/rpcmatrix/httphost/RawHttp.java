package org.rpcmatrix.httphost;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * One HTTP/1.1 exchange written byte by byte on a socket, for the tests of how a server takes what it refuses
 * (bodies over a limit, bad documents): this module's and the HTTP protocol modules' (a test-jar).
 */
public final class RawHttp {
    private RawHttp() {
    }

    /** What a test writes to the server's socket. */
    public interface Request {
        void writeTo(OutputStream out) throws IOException;
    }

    /** An answer's status and its body (by its Content-Length, as UTF-8; a gzip body is left compressed). */
    public record Answer(int status, String text) {
    }

    /**
     * Writes beside the read: a server may answer a body it refuses and close before the client has written it
     * all, which breaks the pipe of a write that came first.
     */
    public static Answer exchange(int port, Request request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    request.writeTo(out);
                    out.flush();
                } catch (IOException refused) {
                    // answered and closed before the whole body was sent
                }
            });
            Answer answer = read(socket.getInputStream());
            writing.get();
            return answer;
        }
    }

    /** An answer's head, then as many bytes of body as its Content-Length says (none without one). */
    public static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        return new Answer(Integer.parseInt(text.substring(9, 12)),
                new String(in.readNBytes(length), StandardCharsets.UTF_8));
    }
}
