package org.rpcmatrix.core.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.CalculatorClient;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.harness.ClientSession;
import org.rpcmatrix.core.reference.LocalCalculators;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.core.reference.ReferenceCalculator;
import org.rpcmatrix.core.testing.FakeClient;
import org.rpcmatrix.core.testing.TestSessions;

/** The calculator scripts and the session workload, on in-process calculators and on faulty fakes. */
class CalculatorSessionsTest {
    /** Calculators that all share one total: what the isolation script must catch. */
    private static final class SharedTotal extends FakeCalculatorClient {
        private long total;

        @Override
        public Object create() {
            return new Object();
        }

        @Override
        public long add(Object c, long n) {
            total += n;
            return total;
        }

        @Override
        public void clear(Object c) {
            total = 0;
        }

        @Override
        public long total(Object c) {
            return total;
        }
    }

    /** A server whose release() leaves the object alive. */
    private static final class NeverReleases extends FakeCalculatorClient {
        private final LocalCalculators local = new LocalCalculators();

        @Override
        public Object create() {
            return local.create();
        }

        @Override
        public long add(Object c, long n) {
            return local.add(c, n);
        }

        @Override
        public void clear(Object c) {
            local.clear(c);
        }

        @Override
        public long total(Object c) {
            return local.total(c);
        }
    }

    private abstract static class FakeCalculatorClient extends FakeClient implements CalculatorClient {
        @Override
        public void release(Object c) {
        }

        @Override
        public boolean isNoSuchObject(Exception e) {
            return false;
        }
    }

    private final Bench bench = new ReferenceBench();

    @Test
    void everyScriptPassesOnTheReferenceCalculator() throws Exception {
        for (String script : List.of("session", "isolation", "released")) {
            assertNull(CalculatorSessions.runScript(script, new LocalCalculators(), bench), script);
        }
    }

    @Test
    void sharedStateFailsIsolation() throws Exception {
        assertEquals("a.total(): expected 3, actual 7", CalculatorSessions.runScript("isolation", new SharedTotal(), bench));
    }

    @Test
    void anObjectThatOutlivesReleaseFails() throws Exception {
        String difference = CalculatorSessions.runScript("released", new NeverReleases(), bench);
        assertEquals("total() on a released calculator: expected the no-such-object error, answered 0", difference);
    }

    @Test
    void int64WrapsAsTwosComplement() {
        ReferenceCalculator calculator = new ReferenceCalculator();
        calculator.add(Long.MAX_VALUE);
        assertEquals(Long.MIN_VALUE, calculator.add(1));
    }

    @Test
    void sessionVectorsPassForACalculatorClientAndAreErrorsOtherwise() throws Exception {
        Protocol rmi = TestSessions.protocol("rmi");
        Vector vector = new Vector("calculator_session", null, Json.MAPPER.createArrayNode(), false, null, List.of(),
                "calculator", "session", null);
        assertEquals("pass", VectorRunner.runOne(new LocalCalculatorsClient(), vector, rmi).status());
        VectorResult plain = VectorRunner.runOne(new FakeClient(), vector, rmi);
        assertEquals("error", plain.status());
        assertEquals(CalculatorSessions.NO_REMOTE_OBJECTS, plain.reason());
    }

    @Test
    void theSessionWorkloadIsTimedAndChecked() throws Exception {
        ClientSession session = TestSessions.session("rmi", new LocalCalculatorsClient());
        assertTrue(answer(session, "{\"cmd\": \"connect\"}").path("ok").asBoolean());
        assertTrue(answer(session, "{\"cmd\": \"prepare\", \"workload\": \"calculatorSession\"}").path("ok").asBoolean());
        JsonNode warm = answer(session, "{\"cmd\": \"warmup\", \"workload\": \"calculatorSession\", \"calls\": 3}");
        assertEquals(3, warm.path("checked").asInt(), warm.toString());
        answer(session, "{\"cmd\": \"measure\", \"workload\": \"calculatorSession\", \"calls\": 4}");
        JsonNode samples = answer(session, "{\"cmd\": \"samples\", \"workload\": \"calculatorSession\"}");
        assertEquals(4, samples.path("samples_ns").get(0).size());
        JsonNode handler = answer(session,
                "{\"cmd\": \"handler\", \"workload\": \"calculatorSession\", \"calls\": 2, \"repetitions\": 2}");
        assertEquals(2, handler.path("samples_ns").size());
    }

    /** The fake Bench client with in-process calculators: a CalculatorClient as a protocol's would be. */
    private static final class LocalCalculatorsClient extends FakeClient implements CalculatorClient {
        private final LocalCalculators local = new LocalCalculators();

        @Override
        public Object create() {
            return local.create();
        }

        @Override
        public long add(Object c, long n) {
            return local.add(c, n);
        }

        @Override
        public void clear(Object c) {
            local.clear(c);
        }

        @Override
        public long total(Object c) {
            return local.total(c);
        }

        @Override
        public void release(Object c) {
            local.release(c);
        }

        @Override
        public boolean isNoSuchObject(Exception e) {
            return local.isNoSuchObject(e);
        }
    }

    private static JsonNode answer(ClientSession session, String command) throws Exception {
        return Json.MAPPER.readTree(session.handle(command));
    }
}
