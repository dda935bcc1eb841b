package org.rpcmatrix.core.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ClosesEachConnection;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.conformance.Vector;
import org.rpcmatrix.core.conformance.VectorResult;
import org.rpcmatrix.core.conformance.VectorRunner;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.testing.FakeClient;
import org.rpcmatrix.core.testing.TestSessions;

/** The command loop of runner/PROTOCOL.md: connect, vectors and quit, driven against an in-process fake client. */
class ClientSessionTest {
    private FakeClient fake;
    private ClientSession session;

    @BeforeEach
    void setUp() throws Exception {
        fake = new FakeClient();
        session = TestSessions.session("xmlrpc", fake);
    }

    private JsonNode send(String command) throws Exception {
        return Json.MAPPER.readTree(session.handle(command));
    }

    private Map<String, JsonNode> vectors(String protocol) throws Exception {
        JsonNode answer = send("{\"cmd\": \"vectors\", \"protocol\": \"" + protocol + "\"}");
        assertTrue(answer.get("ok").booleanValue(), answer.toString());
        Map<String, JsonNode> byId = new HashMap<>();
        answer.get("results").forEach(r -> byId.put(r.get("id").textValue(), r));
        return byId;
    }

    @Test
    void unknownCommandsAndBadLinesAreErrorsNotExits() throws Exception {
        JsonNode unknown = send("{\"cmd\": \"dance\"}");
        assertFalse(unknown.get("ok").booleanValue());
        assertTrue(unknown.get("error").textValue().contains("unknown command"));
        assertFalse(send("not json").get("ok").booleanValue());
        assertFalse(send("{\"cmd\": \"vectors\"}").get("ok").booleanValue(), "vectors before connect");
        assertFalse(session.finished());
    }

    @Test
    void connectTimesTheFirstPing() throws Exception {
        JsonNode answer = send("{\"cmd\": \"connect\"}");
        assertTrue(answer.get("ok").booleanValue());
        assertTrue(answer.get("instantiation_ns").longValue() > 0);
        assertFalse(answer.has("facts"), "a client without facts answers none");
    }

    @Test
    void connectGoesToTheHostAndPortItNamesAndClosesTheEarlierConnection() throws Exception {
        List<ClientOptions> targets = new ArrayList<>();
        FakeClient first = new FakeClient();
        FakeClient second = new FakeClient() {
            @Override
            public void close() {
                throw new IllegalStateException("the earlier server is gone");
            }
        };
        List<FakeClient> clients = new ArrayList<>(List.of(first, second, new FakeClient()));
        ClientSession kept = new ClientSession(ContractFiles.load(TestSessions.IDL), TestSessions.options("xmlrpc"),
                options -> {
                    targets.add(options);
                    return clients.remove(0);
                });
        assertTrue(Json.MAPPER.readTree(kept.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        assertTrue(Json.MAPPER.readTree(kept.handle("{\"cmd\": \"connect\", \"host\": \"198.18.0.2\", \"port\": 4242}"))
                .get("ok").booleanValue());
        assertTrue(first.closed, "the earlier connection is closed before the next");
        // closing a connection whose server is gone must not fail the next connect
        assertTrue(Json.MAPPER.readTree(kept.handle("{\"cmd\": \"connect\", \"port\": 4343}")).get("ok").booleanValue());
        assertEquals("127.0.0.1:9 198.18.0.2:4242 127.0.0.1:4343", targets.stream()
                .map(o -> o.host() + ":" + o.port()).collect(Collectors.joining(" ")));
        assertFalse(Json.MAPPER.readTree(kept.handle("{\"cmd\": \"connect\", \"port\": 70000}")).get("ok").booleanValue());
    }

    /**
     * Connects with a connection per call over clients {@code make} makes, then warms 2 pings and times 3: the
     * clients made, in order.
     */
    private static <T extends FakeClient> List<T> perCallPings(String protocol, Supplier<T> make) throws Exception {
        List<T> made = new ArrayList<>();
        ClientSession perCall = new ClientSession(ContractFiles.load(TestSessions.IDL), TestSessions.options(protocol),
                options -> {
                    made.add(make.get());
                    return made.get(made.size() - 1);
                });
        JsonNode connect = Json.MAPPER.readTree(perCall.handle("{\"cmd\": \"connect\", \"connection\": \"per-call\"}"));
        assertEquals("per-call", connect.get("connection").textValue());
        for (String command : List.of("{\"cmd\": \"warmup\", \"workload\": \"ping\", \"calls\": 2}",
                "{\"cmd\": \"prepare\", \"workload\": \"ping\"}",
                "{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 3}")) {
            assertTrue(Json.MAPPER.readTree(perCall.handle(command)).get("ok").booleanValue(), command);
        }
        return made;
    }

    @Test
    void aConnectionPerCallMakesEachWorkloadCallOnANewClientClosedAfterIt() throws Exception {
        List<FakeClient> made = perCallPings("xmlrpc", FakeClient::new);
        // the connect's own client, then one per call: 2 warm-up calls and 3 timed ones, each closed after it
        assertEquals(6, made.size());
        assertTrue(made.subList(1, 6).stream().allMatch(c -> c.closed));
        assertFalse(made.get(0).closed, "the connect's client stays for the vectors");
        assertFalse(send("{\"cmd\": \"connect\"}").has("connection"), "kept connections by default");
    }

    /** A client made from a WSDL, which closes each connection itself when asked. */
    private static final class ClosingClient extends FakeClient implements ClosesEachConnection {
        int asked;

        @Override
        public void closeEachConnection() {
            asked++;
        }
    }

    @Test
    void aConnectionPerCallKeepsAClientThatClosesEachConnectionItself() throws Exception {
        List<ClosingClient> made = perCallPings("soap11", ClosingClient::new);
        // the connect's client made every call, told once to close each connection
        assertEquals(1, made.size());
        assertEquals(1, made.get(0).asked);
        assertFalse(made.get(0).closed);
    }

    @Test
    void connectAnswersTheClientsFacts() throws Exception {
        ClientSession withFacts = TestSessions.session("grpc", new FakeClient() {
            @Override
            public Map<String, String> facts() {
                return Map.of("transport", "epoll");
            }
        });
        JsonNode answer = Json.MAPPER.readTree(withFacts.handle("{\"cmd\": \"connect\"}"));
        assertEquals("epoll", answer.get("facts").get("transport").textValue());
    }

    @Test
    void vectorsJudgePassFailErrorAndUnsupported() throws Exception {
        send("{\"cmd\": \"connect\"}");
        Map<String, JsonNode> results = vectors("xmlrpc");

        JsonNode crLost = results.get("string_tab_lf_cr");
        assertEquals("fail", crLost.get("status").textValue());
        assertTrue(crLost.get("reason").textValue().startsWith("result: expected \"a\\u0009b"), crLost.toString());

        JsonNode broken = results.get("int64_small");
        assertEquals("error", broken.get("status").textValue());
        assertTrue(broken.get("reason").textValue().contains("connection reset"));

        JsonNode nan = results.get("float64_nan");
        assertEquals("unsupported", nan.get("status").textValue());
        assertTrue(nan.get("reason").textValue().contains("no NaN or infinity"));
        assertEquals("unsupported", results.get("string_c0_controls").get("status").textValue());

        JsonNode stream = results.get("random_doubles_stream_50k");
        assertEquals("unsupported", stream.get("status").textValue(), "the operation's needs count too");
        assertEquals("XML-RPC answers a call with exactly one methodResponse", stream.get("reason").textValue());
        for (String id : new String[] {"ping", "int64_min", "float32_min_subnormal", "float64_negative_zero",
                "string_1mib", "bytes_1mib", "log_transform_50k", "books_100", "items_1000", "fail_simple",
                "fail_empty_message", "is_prime_int32_max", "record_unicode_key"}) {
            assertEquals("pass", results.get(id).get("status").textValue(), id);
            assertEquals("", results.get(id).get("reason").textValue(), id);
        }
        long passes = results.values().stream().filter(r -> r.get("status").textValue().equals("pass")).count();
        long sessionsAndAttacks = results.keySet().stream()
                .filter(id -> id.startsWith("calculator_") || id.startsWith("refuse_")).count();
        assertEquals(11, sessionsAndAttacks, "xmlrpc has no remote objects and checks no security");
        assertEquals(results.size() - 2 - 10 - sessionsAndAttacks, passes,
                "all but the two planted faults, ten unsupported vectors, the sessions and the attacks");
    }

    @Test
    void vectorsRunWhatTheProtocolHas() throws Exception {
        send("{\"cmd\": \"connect\"}");
        Map<String, JsonNode> results = vectors("grpc");
        assertEquals("pass", results.get("random_doubles_stream_uneven").get("status").textValue());
        assertEquals("pass", results.get("float64_nan").get("status").textValue(), "grpc carries NaN");
        JsonNode unregistered = send("{\"cmd\": \"vectors\", \"protocol\": \"smoke-signals\"}");
        assertFalse(unregistered.get("ok").booleanValue());
        assertTrue(unregistered.get("error").textValue().contains("protocol 'smoke-signals' is not in idl/protocols.json"));
    }

    @Test
    void aWrongErrorIsAFailure() throws Exception {
        Vector vector = new Vector("v", Operation.FAIL, Json.MAPPER.readTree("[7, \"x\"]"), false,
                new BenchError(8, "x"), java.util.List.of(), null, null, null);
        VectorResult result = VectorRunner.runOne(fake, vector, TestSessions.protocol("rawtcp"));
        assertEquals("fail", result.status());
        assertEquals("error.code: expected 8, actual 7", result.reason());
    }

    @Test
    void quitClosesTheClient() throws Exception {
        send("{\"cmd\": \"connect\"}");
        JsonNode answer = send("{\"cmd\": \"quit\"}");
        assertTrue(answer.get("ok").booleanValue());
        assertTrue(fake.closed);
        assertTrue(session.finished());
    }
}
