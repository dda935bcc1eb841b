package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/**
 * The Java XML-RPC server, plain and gzip (whose library extensions are on), refuses what the contract never
 * sends: a serialized Java object is not rebuilt, and a DOCTYPE naming an external DTD is not fetched.
 */
class HostileInputTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    /** A class the server's JVM can load; readObject counts every instance rebuilt from bytes. */
    static final class Canary implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger REBUILT = new AtomicInteger();

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            REBUILT.incrementAndGet();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xmlrpc", "xmlrpc-gzip"})
    void aSerializedObjectIsRefusedUnread(String protocol) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new Canary());
        }
        String call = "<?xml version=\"1.0\"?><methodCall xmlns:ex=\"http://ws.apache.org/xmlrpc/namespaces/extensions\">"
                + "<methodName>echoString</methodName><params><param><value><ex:serializable>"
                + Base64.getEncoder().encodeToString(bytes.toByteArray())
                + "</ex:serializable></value></param></params></methodCall>";
        Canary.REBUILT.set(0);
        String answer = post(protocol, call);
        assertTrue(answer.contains("<fault>"), answer);
        assertEquals(0, Canary.REBUILT.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"xmlrpc", "xmlrpc-gzip"})
    void anExternalDtdIsNeverFetched(String protocol) throws Exception {
        AtomicInteger fetches = new AtomicInteger();
        try (ServerSocket canary = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            // A canary that counts and drops every connection, so a server that fetches fails fast, not hangs.
            Thread listener = new Thread(() -> {
                while (!canary.isClosed()) {
                    try (Socket fetch = canary.accept()) {
                        fetches.incrementAndGet();
                        fetch.shutdownOutput(); // dropped at once: the server's fetch fails fast
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            listener.setDaemon(true);
            listener.start();
            String call = "<?xml version=\"1.0\"?><!DOCTYPE methodCall SYSTEM \"http://127.0.0.1:"
                    + canary.getLocalPort() + "/bench.dtd\"><methodCall><methodName>ping</methodName>"
                    + "<params></params></methodCall>";
            String answer = post(protocol, call);
            assertTrue(answer.contains("<fault>"), answer);
            assertTrue(answer.contains("DOCTYPE"), answer);
        }
        assertEquals(0, fetches.get());
    }

    private static String post(String protocol, String body) throws Exception {
        XmlRpcServer server = XmlRpcServer.start(new ServerOptions(
                ProtocolRegistry.load(IDL).require(protocol), "127.0.0.1", 0, IDL, null, Map.of()));
        try {
            HttpURLConnection http = (HttpURLConnection) new URL("http://127.0.0.1:" + server.port()
                    + XmlRpcServer.PATH).openConnection();
            http.setRequestMethod("POST");
            http.setDoOutput(true);
            http.setRequestProperty("Content-Type", "text/xml");
            try (OutputStream out = http.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.UTF_8));
            }
            InputStream in = http.getResponseCode() < 400 ? http.getInputStream() : http.getErrorStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            server.stop();
        }
    }
}
