package org.rpcmatrix.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.harness.ClientSession;
import org.rpcmatrix.core.testing.Connections;

/** The load command through the command loop against this module's server over loopback: one channel, many calls. */
class GrpcLoadTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    @Test
    void concurrentCallsShareTheChannelsOneConnection() throws Exception {
        Protocol grpc = ProtocolRegistry.load(IDL).require("grpc");
        RunningServer server = GrpcServer.start(new ServerOptions(grpc, "127.0.0.1", 0, IDL, null, Map.of()));
        try {
            ClientSession session = new ClientSession(ContractFiles.load(IDL),
                    new ClientOptions(grpc, "127.0.0.1", server.port(), IDL, null), GrpcClient::connect);
            try {
                assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
                JsonNode answer = Connections.seenDuring(session, "{\"cmd\": \"load\", \"workload\": \"echoInt32\","
                        + " \"connections\": 1, \"in_flight\": 4, \"duration_ms\": 600, \"rate\": 1000}", server.port());
                assertTrue(answer.get("ok").booleanValue(), answer.toString());
                assertEquals(4, answer.get("in_flight").intValue());
                assertTrue(answer.get("calls").longValue() > 0, answer.toString());
                assertEquals(0, answer.get("errors").longValue(), answer.toString());
                // four workers' calls as HTTP/2 streams of the load's one connection, beside the command loop's
                assertEquals(1, answer.get("connections_added").longValue(), answer.toString());
            } finally {
                session.close();
            }
        } finally {
            server.stop();
        }
    }
}
