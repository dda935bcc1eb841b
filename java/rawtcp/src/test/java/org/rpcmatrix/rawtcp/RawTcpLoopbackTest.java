package org.rpcmatrix.rawtcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.harness.ClientSession;
import org.rpcmatrix.core.testing.Connections;

/** This module's client against its server on loopback: every vector must pass; the load command runs over it. */
class RawTcpLoopbackTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private RawTcpServer server;

    @BeforeEach
    void start() throws Exception {
        server = RawTcpServer.start(new ServerOptions(protocol(), "127.0.0.1", 0, IDL, null, java.util.Map.of()));
    }

    private static org.rpcmatrix.core.contract.Protocol protocol() throws java.io.IOException {
        return org.rpcmatrix.core.contract.ProtocolRegistry.load(IDL).require(Main.FAMILY);
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void everyVectorPasses() throws Exception {
        ClientOptions options = new ClientOptions(protocol(), "127.0.0.1", server.port(), IDL, null);
        ContractFiles files = ContractFiles.load(IDL);
        ClientSession session = new ClientSession(files, options, RawTcpClient::connect);
        assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        JsonNode answer = Json.MAPPER.readTree(session.handle("{\"cmd\": \"vectors\", \"protocol\": \"rawtcp\"}"));
        assertEquals(files.vectors().size(), answer.get("results").size());
        for (JsonNode result : answer.get("results")) {
            // the registry: rawtcp lacks streams, remote objects and the security checks
            String expected = result.get("id").textValue().matches("random_doubles_stream.*|calculator_.*|refuse_.*")
                    ? "unsupported" : "pass";
            assertEquals(expected, result.get("status").textValue(), result.toString());
        }
        session.close();
    }

    @Test
    void loadRunsOverConnectionsOfItsOwnOneCallAtATimeEach() throws Exception {
        ClientOptions options = new ClientOptions(protocol(), "127.0.0.1", server.port(), IDL, null);
        ClientSession session = new ClientSession(ContractFiles.load(IDL), options, RawTcpClient::connect);
        assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        JsonNode closed = Connections.seenDuring(session, "{\"cmd\": \"load\", \"workload\": \"echoInt32\","
                + " \"connections\": 2, \"in_flight\": 2, \"duration_ms\": 600, \"warmup_ms\": 50}", server.port());
        assertTrue(closed.get("ok").booleanValue(), closed.toString());
        assertEquals("closed", closed.get("mode").textValue());
        assertTrue(closed.get("calls").longValue() > 0, closed.toString());
        assertEquals(0, closed.get("errors").longValue(), closed.toString());
        assertEquals(0, closed.get("hung").longValue());
        // connections of the load's own beside the command loop's (at least its two: a sample may also catch a
        // connection of an earlier test to a listener that had this port), closed after it
        assertTrue(closed.get("connections_added").longValue() >= 2, closed.toString());
        long before = closed.get("connections_seen").longValue() - closed.get("connections_added").longValue();
        long after = Connections.to(server.port());
        for (int i = 0; i < 100 && after > before; i++) {
            Thread.sleep(20);
            after = Connections.to(server.port());
        }
        assertEquals(before, after, "the load's connections are closed after it");

        JsonNode refused = Json.MAPPER.readTree(session.handle("{\"cmd\": \"load\", \"workload\": \"ping\","
                + " \"connections\": 2, \"in_flight\": 3, \"duration_ms\": 100}"));
        assertFalse(refused.get("ok").booleanValue());
        assertTrue(refused.get("error").textValue().contains("one call at a time per connection"), refused.toString());

        JsonNode open = Json.MAPPER.readTree(session.handle("{\"cmd\": \"load\", \"workload\": \"getItems10\","
                + " \"duration_ms\": 300, \"rate\": 200}"));
        assertTrue(open.get("ok").booleanValue(), open.toString());
        assertEquals(200, open.get("offered_per_s").intValue());
        long offered = open.get("calls").longValue() + open.get("dropped").longValue();
        assertTrue(Math.abs(offered - 60) <= 2, open.toString());
        assertEquals(0, open.get("errors").longValue(), open.toString());

        // the command loop's own connection still serves
        JsonNode measured = Json.MAPPER.readTree(
                session.handle("{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 3}"));
        assertEquals(3, measured.get("calls").intValue(), measured.toString());
        session.close();
    }

    @Test
    void anUnknownOperationIsAnErrorResponse() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(new byte[] {0, 0, 0, 2, 0, 99});
            byte[] body = RawTcpCodec.readFrame(new DataInputStream(socket.getInputStream()));
            RawTcpCodec.Reader response = new RawTcpCodec.Reader(body);
            assertEquals(RawTcpCodec.STATUS_OTHER_ERROR, response.u8());
            assertEquals("unknown operation 99", response.string());
        }
    }

    @Test
    void anOversizedFrameClosesTheConnection() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(new byte[] {0x04, 0, 0, 1});
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    @Test
    void stoppedServersRefuseConnections() throws Exception {
        server.stop();
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", server.port()).close());
    }
}
