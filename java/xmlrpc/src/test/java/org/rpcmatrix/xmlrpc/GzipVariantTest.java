package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/** xmlrpc-gzip: every transport sends gzip requests of their true length and reads gzip answers. */
class GzipVariantTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    private static Protocol protocol(String name) throws java.io.IOException {
        return ProtocolRegistry.load(IDL).require(name);
    }

    @ParameterizedTest
    @EnumSource(ClientTransport.class)
    void everyTransportCallsTheGzipServer(ClientTransport transport) throws Exception {
        XmlRpcServer server = XmlRpcServer.start(
                new ServerOptions(protocol("xmlrpc-gzip"), "127.0.0.1", 0, IDL, null, Map.of()));
        try (XmlRpcClient client = XmlRpcClient.connect(
                new ClientOptions(protocol("xmlrpc-gzip"), "127.0.0.1", server.port(), IDL, null), transport)) {
            client.ping();
            assertEquals("x".repeat(100_000), client.echoString("x".repeat(100_000)));
            assertEquals(3, client.getItems(3).size());
            BenchError error = assertThrows(BenchError.class, () -> client.fail(42, "<&> boom"));
            assertEquals(42, error.code());
        } finally {
            server.stop();
        }
    }

    @ParameterizedTest
    @EnumSource(ClientTransport.class)
    void requestsAreGzipWithTheirTrueLength(ClientTransport transport) throws Exception {
        List<String> seen = new ArrayList<>();
        HttpServer recorder = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        recorder.createContext(XmlRpcServer.PATH, exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String call = new String(gunzip(body), StandardCharsets.UTF_8);
            seen.add(exchange.getRequestHeaders().getFirst("Content-Encoding") + " "
                    + exchange.getRequestHeaders().getFirst("Accept-Encoding") + " "
                    + exchange.getRequestHeaders().getFirst("Content-Length").equals(Integer.toString(body.length))
                    + " " + call.contains("<methodName>echoString</methodName>"));
            byte[] answer = gzip("<?xml version=\"1.0\"?><methodResponse><params><param><value><string>ok"
                    + "</string></value></param></params></methodResponse>");
            exchange.getResponseHeaders().add("Content-Type", "text/xml");
            exchange.getResponseHeaders().add("Content-Encoding", "gzip");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        recorder.start();
        try (XmlRpcClient client = XmlRpcClient.connect(new ClientOptions(protocol("xmlrpc-gzip"),
                "127.0.0.1", recorder.getAddress().getPort(), IDL, null), transport)) {
            assertEquals("ok", client.echoString("y".repeat(5_000)));
        } finally {
            recorder.stop(0);
        }
        assertEquals(List.of("gzip gzip true true"), seen);
    }

    @ParameterizedTest
    @ValueSource(strings = {"xmlrpc", "xmlrpc-gzip"})
    void onlyTheGzipServerCompressesItsAnswers(String name) throws Exception {
        XmlRpcServer server = XmlRpcServer.start(
                new ServerOptions(protocol(name), "127.0.0.1", 0, IDL, null, Map.of()));
        try {
            HttpURLConnection connection = (HttpURLConnection) new URL("http", "127.0.0.1", server.port(),
                    XmlRpcServer.PATH).openConnection();
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "text/xml");
            connection.setRequestProperty("Accept-Encoding", "gzip");
            byte[] call = "<?xml version=\"1.0\"?><methodCall><methodName>ping</methodName><params/></methodCall>"
                    .getBytes(StandardCharsets.UTF_8);
            boolean gzip = name.equals("xmlrpc-gzip");
            if (gzip) {
                connection.setRequestProperty("Content-Encoding", "gzip");
                call = gzip(new String(call, StandardCharsets.UTF_8));
            }
            try (OutputStream out = connection.getOutputStream()) {
                out.write(call);
            }
            assertEquals(200, connection.getResponseCode());
            byte[] answer;
            try (InputStream in = connection.getInputStream()) {
                answer = in.readAllBytes();
            }
            if (gzip) {
                assertEquals("gzip", connection.getHeaderField("Content-Encoding"));
                answer = gunzip(answer);
            } else {
                assertNull(connection.getHeaderField("Content-Encoding"));
            }
            assertTrue(new String(answer, StandardCharsets.UTF_8).contains("<boolean>1</boolean>"));
        } finally {
            server.stop();
        }
    }

    @Test
    void anUnknownCompressionIsRefused() {
        Protocol odd = new Protocol("xmlrpc-odd", "xmlrpc", Map.of("compression", "brotli"), List.of(), Map.of());
        assertThrows(IllegalArgumentException.class, odd::gzip);
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
