package org.rpcmatrix.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.ClientSession;
import org.rpcmatrix.core.ContractFiles;
import org.rpcmatrix.core.ProtocolRegistry;

/** A server and a client in this process over loopback: every vector of the contract, sessions included. */
class RmiRoundTripTest {
    static final Path IDL = Path.of("..", "..", "idl");
    private RmiServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void everyVectorPassesOrIsUnsupported() throws Exception {
        server = RmiServer.start("127.0.0.1", 0, null);
        ClientOptions options = new ClientOptions(ProtocolRegistry.load(IDL).require("rmi"), "127.0.0.1",
                server.port(), IDL, null);
        try (ClientSession session = new ClientSession(ContractFiles.load(IDL), options,
                o -> RmiClient.connect(o.host(), o.port(), false))) {
            ObjectMapper json = new ObjectMapper();
            JsonNode connect = json.readTree(session.handle("{\"cmd\": \"connect\"}"));
            assertTrue(connect.path("instantiation_stub_ns").asLong() > 0, connect.toString());
            JsonNode results = json.readTree(session.handle("{\"cmd\": \"vectors\"}")).path("results");
            int passed = 0;
            for (JsonNode result : results) {
                String status = result.path("status").asText();
                assertTrue(status.equals("pass") || status.equals("unsupported"), result.toString());
                passed += status.equals("pass") ? 1 : 0;
            }
            assertTrue(passed > 70, "passed " + passed);
            for (String id : new String[] {"calculator_session", "calculator_isolation", "calculator_released"}) {
                assertEquals("pass", status(results, id), id);
            }
        }
    }

    private static String status(JsonNode results, String id) {
        for (JsonNode result : results) {
            if (result.path("id").asText().equals(id)) {
                return result.path("status").asText();
            }
        }
        return "missing";
    }
}
