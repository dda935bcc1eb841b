package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.harness.ClientSession;

/** This module's client against its server on loopback. */
class XmlRpcLoopbackTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private static XmlRpcServer server;

    @BeforeAll
    static void start() throws Exception {
        server = XmlRpcServer.start(new ServerOptions(protocol(), "127.0.0.1", 0, IDL, null, java.util.Map.of()));
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    private static org.rpcmatrix.core.contract.Protocol protocol() throws java.io.IOException {
        return org.rpcmatrix.core.contract.ProtocolRegistry.load(IDL).require(Main.FAMILY);
    }

    private static ClientOptions options() throws java.io.IOException {
        return new ClientOptions(protocol(), "127.0.0.1", server.port(), IDL, null);
    }

    @Test
    void everyVectorPassesOrIsUnsupportedByTheProtocolLimits() throws Exception {
        ContractFiles files = ContractFiles.load(IDL);
        Map<String, String> lacks = protocol().lacks();
        ClientSession session = new ClientSession(files, options(), XmlRpcClient::connect);
        assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        JsonNode answer = Json.MAPPER.readTree(session.handle("{\"cmd\": \"vectors\", \"protocol\": \"xmlrpc\"}"));
        int passed = 0;
        for (JsonNode result : answer.get("results")) {
            String status = result.get("status").textValue();
            if (status.equals("pass")) {
                passed++;
            } else {
                assertEquals("unsupported", status, result.toString());
                assertTrue(lacks.containsValue(result.get("reason").textValue()), result.toString());
            }
        }
        assertEquals(answer.get("results").size() - 21, passed, "7 vectors carry NaN, infinities or C0 controls, "
                + "3 need server streaming, 3 remote objects and 8 a security check XML-RPC does not make");
        session.close();
    }

    @Test
    void faultsAreBenchErrors() throws Exception {
        XmlRpcClient client = XmlRpcClient.connect(options());
        BenchError error = assertThrows(BenchError.class, () -> client.fail(0, ""));
        assertEquals(0, error.code());
        assertEquals("", error.getMessage());
        BenchError negative = assertThrows(BenchError.class, () -> client.getItems(-1));
        assertEquals(400, negative.code());
    }

    @Test
    void theServerRefusesValuesThatDoNotFit() throws Exception {
        org.apache.xmlrpc.client.XmlRpcClient raw = new org.apache.xmlrpc.client.XmlRpcClient();
        org.apache.xmlrpc.client.XmlRpcClientConfigImpl config = new org.apache.xmlrpc.client.XmlRpcClientConfigImpl();
        config.setServerURL(new java.net.URL("http", "127.0.0.1", server.port(), XmlRpcServer.PATH));
        raw.setConfig(config);
        org.apache.xmlrpc.XmlRpcException byteTooBig = assertThrows(org.apache.xmlrpc.XmlRpcException.class,
                () -> raw.execute("echoInt8", new Object[] {300}));
        assertEquals(BenchHandlerMapping.INVALID_PARAMS, byteTooBig.code);
        org.apache.xmlrpc.XmlRpcException notDecimal = assertThrows(org.apache.xmlrpc.XmlRpcException.class,
                () -> raw.execute("echoInt64", new Object[] {"12e3"}));
        assertEquals(BenchHandlerMapping.INVALID_PARAMS, notDecimal.code);
        assertThrows(org.apache.xmlrpc.XmlRpcException.class, () -> raw.execute("Bench.ping", new Object[0]));
        assertEquals(Boolean.TRUE, raw.execute("ping", new Object[0]), "void travels as true");
    }

    @Test
    void callsReuseOneConnection() throws Exception {
        XmlRpcClient client = XmlRpcClient.connect(options());
        client.ping();
        long before = socketsTo(server.port());
        assertTrue(before > 0, "the ping's connection is listed");
        for (int i = 0; i < 20; i++) {
            client.echoString("keep-alive " + i);
        }
        assertThrows(BenchError.class, () -> client.fail(1, "a fault keeps the connection too"));
        assertEquals(before, socketsTo(server.port()), "no new connection per call");
    }

    /**
     * Loopback sockets, in any state, whose remote end is {@code port}: a connection per call would leave one more
     * (in TIME_WAIT) each time. Both tables: the JDK's sockets are IPv6 ones (a mapped IPv4 address) where the
     * kernel has IPv6, and /proc/net/tcp alone listed none, so the count was 0 before and after whatever happened.
     */
    private static long socketsTo(int port) throws Exception {
        String remotePort = String.format(":%04X", port);
        long count = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            if (Files.exists(Path.of(table))) {
                count += Files.readAllLines(Path.of(table)).stream()
                        .map(line -> line.trim().split("\\s+"))
                        .filter(fields -> fields.length > 3 && fields[2].endsWith(remotePort))
                        .count();
            }
        }
        return count;
    }

    @Test
    void theServerListensOnItsPort() throws Exception {
        new Socket("127.0.0.1", server.port()).close();
    }
}
