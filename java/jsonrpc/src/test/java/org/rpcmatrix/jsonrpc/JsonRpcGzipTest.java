package org.rpcmatrix.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/** jsonrpc-gzip: the client compresses its requests and reads gzip answers; jsonrpc4j's server refuses it. */
class JsonRpcGzipTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    private static Protocol protocol(String name) throws java.io.IOException {
        return ProtocolRegistry.load(IDL).require(name);
    }

    @Test
    void theGzipClientCompressesRequestsAndReadsGzipAnswers() throws Exception {
        List<String> seen = new ArrayList<>();
        HttpServer recorder = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        recorder.createContext(JsonRpcServer.PATH, exchange -> {
            String request = new String(gunzip(exchange.getRequestBody().readAllBytes()), StandardCharsets.UTF_8);
            seen.add(exchange.getRequestHeaders().getFirst("Content-Encoding") + " "
                    + exchange.getRequestHeaders().getFirst("Accept-Encoding").contains("gzip") + " "
                    + request.contains("\"method\":\"echoString\""));
            String id = new ObjectMapper().readTree(request).get("id").toString();
            byte[] answer = gzip("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":\"ok\"}");
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("Content-Encoding", "gzip");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        recorder.start();
        try (JsonRpcClient client = JsonRpcClient.connect(new ClientOptions(protocol("jsonrpc-gzip"),
                "127.0.0.1", recorder.getAddress().getPort(), IDL, null))) {
            assertEquals("ok", client.echoString("z".repeat(5_000)));
            assertEquals("ok", client.echoString("again"));
        } finally {
            recorder.stop(0);
        }
        assertEquals(List.of("gzip true true", "gzip true true"), seen);
    }

    @Test
    void jsonrpc4jsServerRefusesTheGzipVariant() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> JsonRpcServer.start(
                new ServerOptions(protocol("jsonrpc-gzip"), "127.0.0.1", 0, IDL, null, Map.of())));
        assertTrue(refused.getMessage().contains("ignores the Accept-Encoding"), refused.getMessage());
    }

    private static byte[] gzip(String text) throws java.io.IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private static byte[] gunzip(byte[] body) throws java.io.IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        }
    }
}
