package org.rpcmatrix.core.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.testing.FakeClient;
import org.rpcmatrix.core.testing.TestSessions;

/**
 * The load command (runner/PROTOCOL.md#load): closed and open loops, latency from the intended send time,
 * dropped, late and failed calls counted, a hung call given up. Every test is bounded to a few seconds.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LoadTest {
    private static LoadPlan plan(String fields) throws Exception {
        ObjectNode command = (ObjectNode) Json.MAPPER.readTree("{\"duration_ms\": 1000}");
        command.setAll((ObjectNode) Json.MAPPER.readTree(fields));
        return LoadPlan.of(command);
    }

    private static Histogram histogram(JsonNode answer, String name) throws DataFormatException {
        byte[] bytes = Base64.getDecoder().decode(answer.get(name).textValue());
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    }

    private static void park(long nanos) {
        long until = System.nanoTime() + nanos;
        long left;
        while ((left = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    @Test
    void aStallShowsInTheCorrectedLatencyAndNotInTheServiceTime() throws Exception {
        // The check: a server that stalls 200 ms once a second. At 500 calls/s with one call in flight the
        // calls due during a stall wait for it: their latency from the intended send runs up to 200 ms, while the
        // service time of all but the stalled calls stays short (what a tool timing from the actual send reports).
        long started = System.nanoTime();
        Set<Long> stalled = new HashSet<>();
        Load.Call call = () -> {
            long second = (System.nanoTime() - started) / 1_000_000_000L;
            park(stalled.add(second) ? 200_000_000L : 200_000L);
        };
        JsonNode answer = Load.run(plan("{\"duration_ms\": 3000, \"warmup_ms\": 100, \"rate\": 500}"), w -> call);
        assertEquals("open", answer.get("mode").textValue());
        assertEquals(500, answer.get("offered_per_s").intValue());
        Histogram latency = histogram(answer, "latency");
        Histogram service = histogram(answer, "service");
        assertTrue(latency.getValueAtPercentile(99) >= 150_000_000L, answer.toString());
        assertTrue(service.getValueAtPercentile(99) < 50_000_000L, answer.toString());
        assertTrue(answer.get("late").longValue() > 100, "the calls due during the stalls were sent late");
        assertEquals(0, answer.get("errors").longValue());
        assertEquals(0, answer.get("hung").longValue());
        assertEquals(answer.get("calls").longValue(), latency.getTotalCount());
    }

    @Test
    void aClosedLoopKeepsEveryWorkerBusyAndTimesFromTheSend() throws Exception {
        AtomicInteger inCall = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Load.Call call = () -> {
            most.accumulateAndGet(inCall.incrementAndGet(), Math::max);
            park(2_000_000L);
            inCall.decrementAndGet();
        };
        JsonNode answer = Load.run(plan("{\"connections\": 4, \"in_flight\": 4, \"duration_ms\": 500}"), w -> call);
        assertEquals("closed", answer.get("mode").textValue());
        assertFalse(answer.has("offered_per_s"));
        assertEquals(4, most.get());
        // four workers of 2 ms calls: about 2,000 calls a second (a park overshoots, never undershoots)
        double achieved = answer.get("achieved_per_s").doubleValue();
        assertTrue(achieved >= 500 && achieved <= 2000, "achieved " + achieved);
        assertEquals(answer.get("calls").longValue(), histogram(answer, "latency").getTotalCount());
        assertTrue(histogram(answer, "dispatch").getValueAtPercentile(99) < 1_000_000L);
        assertEquals(0, answer.get("dropped").longValue());
        assertEquals(0, answer.get("late").longValue());
        // a closed loop sends when it intends to: latency is the service time
        assertEquals(histogram(answer, "latency"), histogram(answer, "service"));
    }

    @Test
    void anUnreachableRateDropsWhatItCouldNotSend() throws Exception {
        // 10 ms calls, one in flight, 1,000 a second asked for half a second: about 50 sent, the rest dropped.
        JsonNode answer = Load.run(plan("{\"duration_ms\": 500, \"rate\": 1000}"), w -> () -> park(10_000_000L));
        long calls = answer.get("calls").longValue();
        long dropped = answer.get("dropped").longValue();
        assertTrue(calls <= 60, answer.toString());
        assertTrue(dropped >= 400, answer.toString());
        assertTrue(Math.abs(calls + dropped - 500) <= 3, answer.toString());
        assertTrue(answer.get("achieved_per_s").doubleValue() < 0.15 * answer.get("offered_per_s").doubleValue());
    }

    @Test
    void failedCallsAreCountedAndNotTimed() throws Exception {
        AtomicInteger count = new AtomicInteger();
        Load.Call call = () -> {
            if (count.incrementAndGet() % 10 == 0) {
                throw new IllegalStateException("refused");
            }
        };
        JsonNode answer = Load.run(
                plan("{\"duration_ms\": 300, \"rate\": 2000, \"arrival\": \"poisson\", \"seed\": 3}"), w -> call);
        assertEquals("poisson", answer.get("arrival").textValue());
        assertEquals(3, answer.get("seed").longValue());
        assertTrue(answer.get("errors").longValue() > 0, answer.toString());
        assertEquals("IllegalStateException: refused", answer.get("first_error").textValue());
        assertEquals(answer.get("calls").longValue() - answer.get("errors").longValue(),
                histogram(answer, "latency").getTotalCount());
    }

    @Test
    void poissonArrivalsComeAtTheRateOnAverage() throws Exception {
        // 2,000 a second for 500 ms from one seed: about 1,000 calls (a Poisson count: within 10 % nearly surely)
        JsonNode answer = Load.run(plan("{\"duration_ms\": 500, \"rate\": 2000, \"arrival\": \"poisson\", \"seed\": 7}"),
                w -> () -> { });
        long offered = answer.get("calls").longValue() + answer.get("dropped").longValue();
        assertTrue(offered >= 900 && offered <= 1100, answer.toString());
    }

    @Test
    void aCallThatNeverReturnsIsHungAndTheCommandStillAnswers() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        Load.Call deaf = () -> {
            while (released.getCount() > 0) {
                try {
                    released.await(); // deaf to the interrupt that gives its worker up: only the test ends it
                } catch (InterruptedException e) {
                    // as a call stuck in a library that swallows interrupts
                }
            }
        };
        long begun = System.nanoTime();
        try {
            JsonNode answer = Load.run(plan("{\"duration_ms\": 200, \"timeout_ms\": 300}"), w -> deaf);
            assertTrue(System.nanoTime() - begun < 2_000_000_000L, "answered in bounded time");
            assertEquals(1, answer.get("hung").longValue());
            assertTrue(answer.get("timeouts").longValue() >= 1);
            assertEquals(0, answer.get("calls").longValue(), "its one call never returned: the window counts none");
        } finally {
            released.countDown();
        }
    }

    @Test
    void aHungWorkerDoesNotHoldTheOthersUp() throws Exception {
        // two workers, one hangs for good on its first call: the other keeps calling through the window
        JsonNode answer = Load.run(plan("{\"connections\": 2, \"in_flight\": 2, \"duration_ms\": 300, \"timeout_ms\": 200}"),
                w -> w == 0 ? () -> LockSupport.parkNanos(5_000_000_000L) : () -> park(1_000_000L));
        assertEquals(1, answer.get("hung").longValue());
        // held up, it would make none; 10 of its 1 ms calls in the 300 ms window leave room for a slow machine
        assertTrue(answer.get("calls").longValue() > 10, answer.toString());
    }

    @Test
    void badFieldsAreRefusedNamingTheField() {
        String[][] cases = {
            {"{\"duration_ms\": 0}", "duration_ms"},
            {"{\"duration_ms\": \"100\"}", "duration_ms"},
            {"{\"rate\": -1}", "rate"},
            {"{\"rate\": 1e9}", "rate"},
            {"{\"arrival\": \"bursty\"}", "arrival"},
            {"{\"connections\": \"two\"}", "connections"},
            {"{\"connections\": 0}", "connections"},
            {"{\"in_flight\": 1.5}", "in_flight"},
            {"{\"warmup_ms\": -1}", "warmup_ms"},
            {"{\"late_ms\": 0}", "late_ms"},
            {"{\"timeout_ms\": true}", "timeout_ms"},
            {"{\"seed\": \"x\"}", "seed"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan(c[0]), c[0]);
            assertTrue(e.getMessage().contains("\"" + c[1] + "\""), e.getMessage());
        }
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> LoadPlan.of(Json.MAPPER.readTree("{\"cmd\": \"load\"}")));
        assertTrue(missing.getMessage().contains("\"duration_ms\""), missing.getMessage());
    }

    @Test
    void theDefaults() throws Exception {
        LoadPlan plan = plan("{\"connections\": 3}");
        assertEquals(3, plan.inFlight());
        assertEquals(0, plan.warmupNs());
        assertFalse(plan.open());
        assertEquals(1_000_000L, plan.lateNs());
        assertEquals(10_000_000_000L, plan.timeoutNs());
        assertEquals(LoadPlan.CONSTANT, plan("{\"rate\": 10}").arrival());
        assertFalse(plan("{\"rate\": null}").open());
    }

    @Test
    void moreWorkersThanTheHeapHoldsHistogramsForAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Load.checkHeap(plan("{\"in_flight\": 1000000}")));
        assertTrue(e.getMessage().contains("\"in_flight\""), e.getMessage());
    }

    @Test
    void theHistogramsAreHdrHistogramsV2CompressedAndTheGeneratorSaysSo() throws Exception {
        JsonNode answer = Load.run(plan("{\"duration_ms\": 50}"), w -> () -> park(100_000L));
        byte[] bytes = Base64.getDecoder().decode(answer.get("latency").textValue());
        // the V2 compressed encoding's cookie (its 0xf0 bits say the word size: every port masks them)
        assertEquals(0x1c849304, ByteBuffer.wrap(bytes).getInt() & ~0xf0);
        Histogram latency = histogram(answer, "latency");
        assertEquals(Load.LOWEST_NS, latency.getLowestDiscernibleValue());
        assertEquals(Load.HIGHEST_NS, latency.getHighestTrackableValue());
        assertEquals(Load.DIGITS, latency.getNumberOfSignificantValueDigits());
        assertTrue(latency.getValueAtPercentile(50) >= 100_000L);
        JsonNode generator = answer.get("generator");
        assertEquals("org.rpcmatrix.core.harness.Load", generator.get("name").textValue());
        assertEquals(Runtime.version().toString(), generator.get("version").textValue());
        assertEquals(1, generator.get("threads").intValue());
        assertEquals("HdrHistogram 2.2.2", generator.get("histogram").textValue());
        assertEquals("System.nanoTime", generator.get("clock").textValue());
        for (String field : new String[] {"mode", "connections", "in_flight", "calls", "errors", "timeouts", "hung",
            "late", "dropped", "achieved_per_s", "elapsed_ms", "client_cpu_ns", "latency", "service", "dispatch"}) {
            assertTrue(answer.has(field), field);
        }
        assertTrue(answer.get("client_cpu_ns").longValue() >= 0);
    }

    /** The adapters a session's factory opens, of a stack whose connection carries concurrent calls or not. */
    private static final class Adapters {
        final List<FakeClient> opened = new ArrayList<>();
        final boolean shared;

        Adapters(boolean shared) {
            this.shared = shared;
        }

        BenchClient open() {
            FakeClient client = new FakeClient() {
                @Override
                public boolean sharesConnection() {
                    return shared;
                }
            };
            synchronized (opened) {
                opened.add(client);
            }
            return client;
        }

        ClientSession session(String protocol) throws Exception {
            ClientSession session = new ClientSession(ContractFiles.load(TestSessions.IDL),
                    TestSessions.options(protocol), o -> open());
            assertTrue(send(session, "{\"cmd\": \"connect\"}").get("ok").booleanValue());
            return session;
        }
    }

    private static JsonNode send(ClientSession session, String command) throws Exception {
        return Json.MAPPER.readTree(session.handle(command));
    }

    @Test
    void aClientWithOneCallPerConnectionRefusesMoreInFlightThanConnections() throws Exception {
        Adapters connections = new Adapters(false);
        ClientSession session = connections.session("rawtcp");
        JsonNode refused = send(session,
                "{\"cmd\": \"load\", \"workload\": \"ping\", \"connections\": 2, \"in_flight\": 4, \"duration_ms\": 50}");
        assertFalse(refused.get("ok").booleanValue());
        assertTrue(refused.get("error").textValue().contains("one call at a time per connection"), refused.toString());
        assertEquals(1, connections.opened.size(), "refused before opening any connection");

        JsonNode served = send(session,
                "{\"cmd\": \"load\", \"workload\": \"ping\", \"connections\": 2, \"in_flight\": 2, \"duration_ms\": 50}");
        assertTrue(served.get("ok").booleanValue(), served.toString());
        assertTrue(served.get("calls").longValue() > 0);
        assertEquals(2, served.get("generator").get("threads").intValue());
        assertEquals(3, connections.opened.size(), "two connections of its own");
        assertTrue(connections.opened.get(1).closed && connections.opened.get(2).closed, "closed after the command");
        assertFalse(connections.opened.get(0).closed, "the command loop's connection stays as it was");

        JsonNode sessionWorkload = send(new Adapters(false).session("rmi"),
                "{\"cmd\": \"load\", \"workload\": \"calculatorSession\", \"duration_ms\": 50}");
        assertFalse(sessionWorkload.get("ok").booleanValue());
        assertTrue(sessionWorkload.get("error").textValue().contains("session"), sessionWorkload.toString());
        JsonNode bad = send(session, "{\"cmd\": \"load\", \"workload\": \"ping\", \"duration_ms\": -5}");
        assertFalse(bad.get("ok").booleanValue());
        assertTrue(bad.get("error").textValue().contains("duration_ms"), bad.toString());
        JsonNode unknown = send(session, "{\"cmd\": \"load\", \"workload\": \"nope\", \"duration_ms\": 50}");
        assertFalse(unknown.get("ok").booleanValue());
    }

    @Test
    void aClientWhoseConnectionCarriesConcurrentCallsTakesMoreInFlight() throws Exception {
        Adapters connections = new Adapters(true);
        ClientSession session = connections.session("rawtcp");
        JsonNode served = send(session, "{\"cmd\": \"load\", \"workload\": \"echoInt32\", \"connections\": 1,"
                + " \"in_flight\": 4, \"duration_ms\": 50, \"rate\": 400}");
        assertTrue(served.get("ok").booleanValue(), served.toString());
        assertEquals(4, served.get("in_flight").intValue());
        assertEquals(2, connections.opened.size());
        assertEquals(0, served.get("errors").longValue());
    }

    @Test
    void loadNeedsAConnection() throws Exception {
        ClientSession session = TestSessions.session("rawtcp", new FakeClient());
        JsonNode answer = send(session, "{\"cmd\": \"load\", \"workload\": \"ping\", \"duration_ms\": 50}");
        assertFalse(answer.get("ok").booleanValue());
        assertTrue(answer.get("error").textValue().contains("not connected"), answer.toString());
    }
}
