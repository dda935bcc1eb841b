package org.rpcmatrix.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.harness.ClientSession;
import org.rpcmatrix.core.testing.Connections;

/**
 * corba-ior in this process over loopback: IOR files, a call, the user exception, a released calculator; the load
 * command's concurrent calls sharing one connection.
 */
class CorbaRoundTripTest {
    private static final String LOOPBACK = "jacorb.iiop.enable_loopback";

    @Test
    void callsGoThroughTheIorFiles(@TempDir Path cell) throws Exception {
        CorbaServer server = CorbaServer.start("127.0.0.1", 0, false, cell);
        try {
            assertTrue(Files.exists(cell.resolve(Orbs.BENCH_IOR)));
            assertTrue(server.port() > 0);
            CorbaClient client = CorbaClient.connect("127.0.0.1", server.port(), false, cell);
            try {
                assertEquals("héllo 😀", client.echoString("héllo 😀"));
                assertEquals((byte) -1, client.echoInt8((byte) -1));
                BenchError error = assertThrows(BenchError.class, () -> client.fail(7, "seven"));
                assertEquals(7, error.code());
                assertEquals("seven", error.getMessage());
                Object calculator = client.create();
                assertEquals(Long.MAX_VALUE, client.add(calculator, Long.MAX_VALUE));
                assertEquals(Long.MIN_VALUE, client.add(calculator, 1));
                client.release(calculator);
                OBJECT_NOT_EXIST gone = assertThrows(OBJECT_NOT_EXIST.class, () -> client.total(calculator));
                assertTrue(client.isNoSuchObject(gone));
                client.ping();
            } finally {
                client.close();
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void concurrentCallsShareTheClientsOneConnection(@TempDir Path cell) throws Exception {
        Path idl = Path.of("..", "..", "idl");
        // JacORB carries calls between ORBs of one process over in-memory pipes unless told otherwise: TCP here,
        // as between the processes of a run, so that the connections can be counted
        System.setProperty(LOOPBACK, "off");
        CorbaServer server;
        try {
            server = CorbaServer.start("127.0.0.1", 0, false, cell);
        } finally {
            System.clearProperty(LOOPBACK);
        }
        try {
            ClientOptions options = new ClientOptions(ProtocolRegistry.load(idl).require("corba-ior"), "127.0.0.1",
                    server.port(), idl, null);
            ClientSession session = new ClientSession(ContractFiles.load(idl), options,
                    o -> CorbaClient.connect(o.host(), o.port(), false, cell));
            try {
                assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
                JsonNode answer = Connections.seenDuring(session, "{\"cmd\": \"load\", \"workload\": \"echoInt32\","
                        + " \"connections\": 1, \"in_flight\": 4, \"duration_ms\": 600}", server.port());
                assertTrue(answer.get("ok").booleanValue(), answer.toString());
                assertEquals(4, answer.get("in_flight").intValue());
                assertTrue(answer.get("calls").longValue() > 0, answer.toString());
                assertEquals(0, answer.get("errors").longValue(), answer.toString());
                // four calls in flight over the load's one connection, beside the command loop's
                assertEquals(1, answer.get("connections_added").longValue(), answer.toString());
                JsonNode session2 = Json.MAPPER.readTree(session.handle(
                        "{\"cmd\": \"load\", \"workload\": \"calculatorSession\", \"duration_ms\": 100}"));
                assertFalse(session2.get("ok").booleanValue(), "a session is refused");
            } finally {
                session.close();
            }
        } finally {
            server.stop();
        }
    }
}
