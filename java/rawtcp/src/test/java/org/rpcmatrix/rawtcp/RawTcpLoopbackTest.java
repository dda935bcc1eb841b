package org.rpcmatrix.rawtcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.ClientSession;
import org.rpcmatrix.core.ContractFiles;
import org.rpcmatrix.core.Json;
import org.rpcmatrix.core.ServerOptions;

/** This module's client against its server on loopback: every vector must pass. */
class RawTcpLoopbackTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private RawTcpServer server;

    @BeforeEach
    void start() throws Exception {
        server = RawTcpServer.start(new ServerOptions("127.0.0.1", 0, null, null, false));
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void everyVectorPasses() throws Exception {
        ClientOptions options = new ClientOptions("127.0.0.1", server.port(), IDL, null, false);
        ContractFiles files = ContractFiles.load(IDL);
        ClientSession session = new ClientSession(files, options, Main.PROTOCOL, RawTcpClient::connect);
        assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        JsonNode answer = Json.MAPPER.readTree(session.handle("{\"cmd\": \"vectors\", \"protocol\": \"rawtcp\"}"));
        assertEquals(files.vectors().stream().filter(v -> v.belongsTo("rawtcp")).count(), answer.get("results").size());
        for (JsonNode result : answer.get("results")) {
            assertEquals("pass", result.get("status").textValue(), result.toString());
        }
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
