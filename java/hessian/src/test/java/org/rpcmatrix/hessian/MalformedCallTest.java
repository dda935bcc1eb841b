package org.rpcmatrix.hessian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.httphost.HttpHost;

/**
 * A Hessian 2 call the server cannot read gets an error answer (HTTP 500 with the reason), not an empty HTTP 200,
 * and the server goes on serving.
 */
class MalformedCallTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    /** A Hessian 2 call header, then the method's name and its argument count. */
    private static byte[] call(String method, int args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'H', 2, 0, 'C', (byte) method.length()});
        out.writeBytes(method.getBytes(StandardCharsets.US_ASCII));
        out.write(0x90 + args);
        return out.toByteArray();
    }

    private static byte[] concat(byte[] head, byte[] tail) {
        byte[] whole = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, whole, head.length, tail.length);
        return whole;
    }

    /** Posts the body; returns the status and the answer's length. */
    private static int[] post(int port, byte[] body) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/hessian").openConnection();
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "x-application/hessian");
        try (OutputStream out = connection.getOutputStream()) {
            out.write(body);
        }
        int status = connection.getResponseCode();
        InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream();
        int length = in == null ? 0 : in.readAllBytes().length;
        connection.disconnect();
        return new int[] {status, length};
    }

    @Test
    void anUnreadableCallIsAnErrorAnswerAndTheServerGoesOn() throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require("hessian2");
        HttpHost host = HttpHost.start("127.0.0.1", 0, "test",
                HessianServer.servlets(protocol.family(), HessianServer.service(new ReferenceBench())));
        try {
            // An argument whose type code Hessian 2 reserves (0x40).
            int[] invalid = post(host.port(), concat(call("echoString", 1), new byte[] {0x40, 'Z'}));
            // 10,000 nested untyped lists (0x57) that never end.
            byte[] nested = new byte[10_000];
            Arrays.fill(nested, (byte) 0x57);
            int[] deep = post(host.port(), concat(call("echoString", 1), nested));
            // The body ends in the middle of the call.
            int[] truncated = post(host.port(), Arrays.copyOf(call("echoString", 1), 6));
            for (int[] answer : new int[][] {invalid, deep, truncated}) {
                assertEquals(500, answer[0]);
                assertFalse(answer[1] == 0, "an error answer carries its reason");
            }
            HessianApi proxy = HessianClient.proxy(protocol, "127.0.0.1", host.port());
            assertEquals("still serving", proxy.echoString("still serving"));
        } finally {
            host.stop();
        }
    }
}
