package org.rpcmatrix.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The command loop of runner/PROTOCOL.md, driven against an in-process fake client. */
class ClientSessionTest {
    private FakeClient fake;
    private ClientSession session;

    @BeforeEach
    void setUp() throws Exception {
        fake = new FakeClient();
        ClientOptions options = new ClientOptions("127.0.0.1", 1, OperationTest.IDL, null, false);
        session = new ClientSession(ContractFiles.load(OperationTest.IDL), options, "xmlrpc", o -> fake);
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

        assertFalse(results.containsKey("random_doubles_stream_50k"), "gRPC-only vectors are left out");
        for (String id : new String[] {"ping", "int64_min", "float32_min_subnormal", "float64_negative_zero",
                "string_1mib", "bytes_1mib", "log_transform_50k", "books_100", "items_1000", "fail_simple",
                "fail_empty_message", "is_prime_int32_max", "record_unicode_key"}) {
            assertEquals("pass", results.get(id).get("status").textValue(), id);
            assertEquals("", results.get(id).get("reason").textValue(), id);
        }
        long passes = results.values().stream().filter(r -> r.get("status").textValue().equals("pass")).count();
        assertEquals(results.size() - 2 - 7, passes, "all but the two planted faults and seven limited vectors");
    }

    @Test
    void protocolOnlyVectorsRunForTheirProtocol() throws Exception {
        send("{\"cmd\": \"connect\"}");
        Map<String, JsonNode> results = vectors("grpc");
        assertEquals("pass", results.get("random_doubles_stream_uneven").get("status").textValue());
        assertEquals("pass", results.get("float64_nan").get("status").textValue(), "grpc carries NaN");
        assertFalse(send("{\"cmd\": \"vectors\", \"protocol\": \"smoke-signals\"}").get("ok").booleanValue());
    }

    @Test
    void aWrongErrorIsAFailure() throws Exception {
        Vector vector = new Vector("v", Operation.FAIL, Json.MAPPER.readTree("[7, \"x\"]"), false,
                new BenchError(8, "x"), java.util.List.of(), java.util.List.of());
        VectorResult result = VectorRunner.runOne(fake, vector, Map.of());
        assertEquals("fail", result.status());
        assertEquals("error.code: expected 8, actual 7", result.reason());
    }

    @Test
    void warmupChecksEveryAnswer() throws Exception {
        send("{\"cmd\": \"connect\"}");
        JsonNode good = send("{\"cmd\": \"warmup\", \"workload\": \"getItems10\", \"calls\": 3}");
        assertTrue(good.get("ok").booleanValue(), good.toString());
        assertEquals(3, good.get("checked").intValue());
        JsonNode unknown = send("{\"cmd\": \"warmup\", \"workload\": \"nope\", \"calls\": 3}");
        assertFalse(unknown.get("ok").booleanValue());
        JsonNode streamOnly = send("{\"cmd\": \"warmup\", \"workload\": \"randomDoublesStream50k\", \"calls\": 1}");
        assertFalse(streamOnly.get("ok").booleanValue(), "a gRPC-only workload on xmlrpc");
    }

    @Test
    void warmupStopsAtAWrongAnswer() throws Exception {
        FakeClient wrong = new FakeClient() {
            @Override
            public int echoInt32(int value) {
                return value + 1;
            }
        };
        ClientOptions options = new ClientOptions("127.0.0.1", 1, OperationTest.IDL, null, false);
        ClientSession other = new ClientSession(ContractFiles.load(OperationTest.IDL), options, "xmlrpc", o -> wrong);
        other.handle("{\"cmd\": \"connect\"}");
        JsonNode answer = Json.MAPPER.readTree(other.handle("{\"cmd\": \"warmup\", \"workload\": \"echoInt32\", \"calls\": 2}"));
        assertFalse(answer.get("ok").booleanValue());
        assertEquals("call 1 of echoInt32: result: expected 424242, actual 424243", answer.get("error").textValue());
    }

    @Test
    void measureGivesOneSampleListPerRepetition() throws Exception {
        send("{\"cmd\": \"connect\"}");
        JsonNode answer = send("{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 5, \"repetitions\": 2}");
        assertTrue(answer.get("ok").booleanValue());
        assertEquals(2, answer.get("samples_ns").size());
        assertEquals(5, answer.get("samples_ns").get(1).size());
        assertTrue(answer.get("samples_ns").get(0).get(0).isIntegralNumber());
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
