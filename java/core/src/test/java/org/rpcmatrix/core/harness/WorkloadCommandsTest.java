package org.rpcmatrix.core.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.testing.FakeClient;
import org.rpcmatrix.core.testing.TestSessions;

/** prepare, warmup (fixed and until steady), measure, samples and handler (runner/PROTOCOL.md#clients). */
class WorkloadCommandsTest {
    private static JsonNode send(ClientSession session, String command) throws Exception {
        JsonNode answer = Json.MAPPER.readTree(session.handle(command));
        assertTrue(answer.has("ok"), answer.toString());
        return answer;
    }

    private static ClientSession connected(String protocol, BenchClient client) throws Exception {
        ClientSession session = TestSessions.session(protocol, client);
        assertTrue(send(session, "{\"cmd\": \"connect\"}").get("ok").booleanValue());
        return session;
    }

    /** Spins for at least {@code nanos}: a call of known minimum duration, on any machine. */
    private static void spin(long nanos) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            Thread.onSpinWait();
        }
    }

    @Test
    void warmupChecksEveryAnswer() throws Exception {
        ClientSession session = connected("xmlrpc", new FakeClient());
        JsonNode good = send(session, "{\"cmd\": \"warmup\", \"workload\": \"getItems10\", \"calls\": 3}");
        assertTrue(good.get("ok").booleanValue(), good.toString());
        assertEquals(3, good.get("checked").intValue());
        assertFalse(send(session, "{\"cmd\": \"warmup\", \"workload\": \"nope\", \"calls\": 3}").get("ok").booleanValue());
    }

    @Test
    void warmupStopsAtAWrongAnswer() throws Exception {
        ClientSession session = connected("xmlrpc", new FakeClient() {
            @Override
            public int echoInt32(int value) {
                return value + 1;
            }
        });
        JsonNode answer = send(session, "{\"cmd\": \"warmup\", \"workload\": \"echoInt32\", \"calls\": 2}");
        assertFalse(answer.get("ok").booleanValue());
        assertEquals("call 1 of echoInt32: result: expected 424242, actual 424243", answer.get("error").textValue());
    }

    @Test
    void aWorkloadNeedingWhatTheProtocolLacksIsRefusedWithTheRegistrysReason() throws Exception {
        ClientSession session = connected("thrift-binary", new FakeClient());
        for (String cmd : new String[] {"prepare", "warmup", "measure"}) {
            JsonNode answer = send(session, "{\"cmd\": \"" + cmd + "\", \"workload\": \"randomDoublesStream50k\", \"calls\": 1}");
            assertFalse(answer.get("ok").booleanValue(), cmd);
            assertTrue(answer.get("error").textValue().endsWith("Thrift services answer a call with exactly one reply"),
                    answer.toString());
        }
        ClientSession grpc = connected("grpc", new FakeClient());
        assertTrue(send(grpc, "{\"cmd\": \"warmup\", \"workload\": \"randomDoublesStream50k\", \"calls\": 1}")
                .get("ok").booleanValue());
    }

    @Test
    void measureAnswersTheCallCountAndSamplesHandsOverOneListPerMeasure() throws Exception {
        ClientSession session = connected("rawtcp", new FakeClient());
        assertTrue(send(session, "{\"cmd\": \"prepare\", \"workload\": \"ping\"}").get("ok").booleanValue());
        JsonNode first = send(session, "{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 5}");
        assertEquals(5, first.get("calls").intValue(), "no min_ms: exactly calls");
        assertFalse(first.has("samples_ns"), "samples leave only with the samples command");
        JsonNode capped = send(session,
                "{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 3, \"min_ms\": 600000, \"max_calls\": 7}");
        assertEquals(7, capped.get("calls").intValue(), "min_ms not reached: max_calls stops it");

        JsonNode samples = send(session, "{\"cmd\": \"samples\", \"workload\": \"ping\"}");
        assertEquals(2, samples.get("samples_ns").size());
        assertEquals(5, samples.get("samples_ns").get(0).size());
        assertEquals(7, samples.get("samples_ns").get(1).size());
        assertTrue(samples.get("samples_ns").get(0).get(0).isIntegralNumber());
        assertEquals(0, send(session, "{\"cmd\": \"samples\", \"workload\": \"ping\"}").get("samples_ns").size(),
                "samples empties the buffer");

        send(session, "{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 1}");
        send(session, "{\"cmd\": \"prepare\", \"workload\": \"ping\"}");
        assertEquals(0, send(session, "{\"cmd\": \"samples\", \"workload\": \"ping\"}").get("samples_ns").size(),
                "prepare empties the buffer");
        assertFalse(send(session, "{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 5, \"max_calls\": 2}")
                .get("ok").booleanValue(), "max_calls below calls");
    }

    @Test
    void measureGoesOnUntilMinMsHasPassed() throws Exception {
        long callNanos = 200_000;
        ClientSession session = connected("rawtcp", new FakeClient() {
            @Override
            public void ping() {
                spin(callNanos);
            }
        });
        long minNanos = 5_000_000;
        JsonNode answer = send(session,
                "{\"cmd\": \"measure\", \"workload\": \"ping\", \"calls\": 2, \"min_ms\": 5, \"max_calls\": 100000}");
        int calls = answer.get("calls").intValue();
        JsonNode samples = send(session, "{\"cmd\": \"samples\", \"workload\": \"ping\"}").get("samples_ns").get(0);
        assertEquals(calls, samples.size());
        long total = 0;
        for (JsonNode sample : samples) {
            assertTrue(sample.longValue() >= callNanos);
            total += sample.longValue();
        }
        // Every call past the two asked for began before min_ms had passed. On a loaded machine a call can take
        // min_ms by itself: then the two asked for are all there is, and nothing is left to check.
        assertTrue(calls >= 2);
        assertTrue(calls == 2 || total - samples.get(calls - 1).longValue() < minNanos,
                "no call after min_ms had passed");
    }

    @Test
    void warmupUntilSteadyStopsAfterThreeAgreeingBatches() throws Exception {
        ClientSession session = connected("rawtcp", new FakeClient());
        JsonNode answer = send(session, "{\"cmd\": \"warmup\", \"workload\": \"echoInt32\", \"calls\": 10,"
                + " \"until_steady\": {\"tolerance\": 1e9, \"max_ms\": 600000}}");
        assertTrue(answer.get("ok").booleanValue(), answer.toString());
        assertTrue(answer.get("steady").booleanValue());
        assertEquals(3, answer.get("batches").intValue());
        assertEquals(30, answer.get("checked").intValue());
        assertEquals(3, answer.get("batch_medians_ns").size());
        assertTrue(answer.get("elapsed_ms").isIntegralNumber());
    }

    @Test
    void warmupUntilSteadyGivesUpAfterMaxMs() throws Exception {
        // Each call lasts twice as long as the one before, and steady asks three batch medians to be equal to the
        // nanosecond (tolerance 0), which calls of different lengths never are. With a tolerance of 50 % the cold
        // first calls' fixed costs (class loading, interpreted code, a loaded machine's scheduling: milliseconds)
        // once made three batches agree.
        ClientSession session = connected("rawtcp", new FakeClient() {
            private long nanos = 1_000_000;

            @Override
            public void ping() {
                spin(nanos);
                nanos *= 2;
            }
        });
        JsonNode answer = send(session, "{\"cmd\": \"warmup\", \"workload\": \"ping\", \"calls\": 1,"
                + " \"until_steady\": {\"tolerance\": 0, \"max_ms\": 20}}");
        assertTrue(answer.get("ok").booleanValue(), answer.toString());
        assertFalse(answer.get("steady").booleanValue());
        // Batch k takes at least 2^(k-1) ms, so five batches take at least 31 ms: max_ms ends the warm-up at the
        // fifth batch at the latest (the fourth when the first four took 20 ms, on a loaded machine earlier).
        int batches = answer.get("batches").intValue();
        assertTrue(batches >= 1 && batches <= 5, "batches " + batches);
        assertEquals(batches, answer.get("checked").intValue());
        assertEquals(batches, answer.get("batch_medians_ns").size());
        assertTrue(answer.get("elapsed_ms").longValue() >= 20);
    }

    @Test
    void handlerTimesTheReferenceInProcessWithoutAConnection() throws Exception {
        ClientSession session = TestSessions.session("thrift-compact", new FakeClient());
        JsonNode answer = send(session,
                "{\"cmd\": \"handler\", \"workload\": \"getItems10\", \"calls\": 4, \"repetitions\": 3}");
        assertTrue(answer.get("ok").booleanValue(), answer.toString());
        assertEquals(3, answer.get("samples_ns").size());
        assertEquals(4, answer.get("samples_ns").get(2).size());
        JsonNode stream = send(session,
                "{\"cmd\": \"handler\", \"workload\": \"randomDoublesStream50k\", \"calls\": 1, \"min_ms\": 0}");
        assertTrue(stream.get("ok").booleanValue(), "the reference behaviour needs no protocol capability");
        assertEquals(1, stream.get("samples_ns").size());
        assertFalse(send(session, "{\"cmd\": \"handler\", \"workload\": \"nope\", \"calls\": 1}").get("ok").booleanValue());
    }
}
