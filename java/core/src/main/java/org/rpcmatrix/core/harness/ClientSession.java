package org.rpcmatrix.core.harness;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rpcmatrix.core.adapter.BackgroundTraffic;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.CalculatorClient;
import org.rpcmatrix.core.adapter.ClientFactory;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ClosesEachConnection;
import org.rpcmatrix.core.adapter.ConnectFigures;
import org.rpcmatrix.core.adapter.MetadataClient;
import org.rpcmatrix.core.conformance.Answers;
import org.rpcmatrix.core.conformance.CalculatorSessions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.conformance.VectorResult;
import org.rpcmatrix.core.conformance.VectorRunner;
import org.rpcmatrix.core.conformance.Workload;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.reference.LocalCalculators;
import org.rpcmatrix.core.reference.ReferenceBench;

/**
 * The client command loop of runner/PROTOCOL.md, one command line in, one JSON answer line out.
 * Holds the connection and the prepared workloads between commands; {@link #finished()} turns true after
 * {@code quit}. Nothing connects before {@code connect}; {@code handler} needs no connection at all.
 */
public final class ClientSession implements AutoCloseable {
    private final ContractFiles files;
    private final ClientOptions options;
    private final ClientFactory factory;
    private final Protocol protocol;
    private final Bench reference = new ReferenceBench();
    private final Map<String, PreparedWorkload> prepared = new HashMap<>();
    private BenchClient client;
    /** The server of the last connect: {@code load} opens its connections of its own to it. */
    private ClientOptions target;
    /** connect's {@code "connection": "per-call"}: each workload call on a new connection ({@link PerCallClient}). */
    private boolean perCall;
    /** Whether the connected client was told to close each connection itself ({@link ClosesEachConnection}). */
    private boolean closingEach;
    private boolean finished;

    public ClientSession(ContractFiles files, ClientOptions options, ClientFactory factory) {
        this.files = files;
        this.options = options;
        this.factory = factory;
        this.protocol = options.protocol();
    }

    public boolean finished() {
        return finished;
    }

    /** Answers one command line; never throws. */
    public String handle(String line) {
        ObjectNode answer;
        try {
            answer = dispatch(Json.MAPPER.readTree(line));
        } catch (JsonProcessingException e) {
            answer = failure("not a JSON command: " + VectorRunner.describe(e));
        } catch (Exception | Error e) {
            answer = failure(VectorRunner.describe(e));
        }
        return answer.toString();
    }

    private ObjectNode dispatch(JsonNode command) throws Exception {
        String cmd = command.path("cmd").asText("");
        switch (cmd) {
            case "connect":
                return connect(command);
            case "vectors":
                return vectors(command);
            case "prepare":
                return prepare(command);
            case "warmup":
                return command.has("until_steady") ? warmupUntilSteady(command) : warmup(command);
            case "measure":
                return measure(command);
            case "samples":
                return samples(command);
            case "handler":
                return handler(command);
            case "metadata":
                return metadata();
            case "load":
                return load(command);
            case "quit":
                close();
                finished = true;
                return success();
            default:
                return failure("unknown command: " + command.path("cmd"));
        }
    }

    /**
     * Connects to the server of the command line, or to the {@code host} and {@code port} the command names:
     * the runner keeps one client process for every server of a protocol in a pass, each on its own port.
     */
    private ObjectNode connect(JsonNode command) throws Exception {
        // the earlier server may be gone: closing its connection is best effort
        BenchClient earlier = client;
        client = null;
        if (earlier != null) {
            closeQuietly(earlier);
        }
        ClientOptions target = new ClientOptions(options.protocol(),
                command.has("host") ? command.get("host").asText() : options.host(),
                command.has("port") ? Commands.port(command) : options.port(), options.idl(), options.secrets());
        long start = System.nanoTime();
        BenchClient connected = factory.connect(target);
        try {
            connected.ping();
        } catch (Exception | Error e) {
            closeQuietly(connected);
            throw e;
        }
        long end = System.nanoTime();
        client = connected;
        this.target = target;
        ObjectNode answer = success().put("instantiation_ns", end - start);
        Map<String, String> facts = connected.facts();
        if (!facts.isEmpty()) {
            ObjectNode object = answer.putObject("facts");
            facts.forEach(object::put);
        }
        if (connected instanceof ConnectFigures figures) {
            figures.connectFigures().forEach(answer::put);
        }
        perCall = "per-call".equals(command.path("connection").asText(""));
        if (perCall) {
            answer.put("connection", "per-call");
        }
        closingEach = false;
        return answer;
    }

    /**
     * The connected client, or with a connection per call one that connects, calls and closes each time, or the
     * connected one where it closes each connection itself ({@link ClosesEachConnection}).
     */
    private BenchClient workloadClient(PreparedWorkload work) {
        BenchClient connected = connected();
        if (!perCall) {
            return connected;
        }
        if (work.isSession()) {
            throw new IllegalArgumentException("a session's calls share their remote objects' connection: no "
                    + "connection per call");
        }
        if (connected instanceof ClosesEachConnection closing) {
            if (!closingEach) { // the vectors kept the connect's connection; the workloads do not
                closing.closeEachConnection();
                closingEach = true;
            }
            return connected;
        }
        return PerCallClient.of(factory, target);
    }

    private ObjectNode metadata() {
        if (!(connected() instanceof MetadataClient checker)) {
            return failure("this client cannot check the metadata " + protocol.name() + " servers publish");
        }
        MetadataClient.Check check = checker.publishedMetadata();
        return success().put("consumable", check.consumable()).put("reason", check.reason());
    }

    private ObjectNode vectors(JsonNode command) {
        Protocol judged = command.has("protocol") ? files.registry().require(command.get("protocol").asText()) : protocol;
        BenchClient connected = connected();
        List<VectorResult> results = VectorRunner.run(connected, files.vectors(), judged);
        ObjectNode answer = success();
        ArrayNode list = answer.putArray("results");
        for (VectorResult result : results) {
            list.addObject().put("id", result.id()).put("status", result.status()).put("reason", result.reason());
        }
        return answer;
    }

    private ObjectNode prepare(JsonNode command) {
        prepared(command, true).clearSamples();
        return success();
    }

    /** {@code calls} calls, every answer checked against the contract. */
    private ObjectNode warmup(JsonNode command) throws Exception {
        PreparedWorkload work = prepared(command, true);
        int calls = Commands.count(command, "calls");
        BenchClient connected = workloadClient(work);
        Object expected = work.expected();
        for (int i = 0; i < calls; i++) {
            Object actual = invoke(work, connected);
            Optional<String> difference = difference(work, expected, actual);
            if (difference.isPresent()) {
                return wrongAnswer(work, i + 1, difference.get());
            }
        }
        return success().put("checked", calls);
    }

    /** Batches of {@code calls} checked and timed calls until the last three batch medians agree, or time runs out. */
    private ObjectNode warmupUntilSteady(JsonNode command) throws Exception {
        PreparedWorkload work = prepared(command, true);
        int calls = Commands.count(command, "calls");
        if (calls < 1) {
            throw new IllegalArgumentException("\"calls\" must be at least 1 with until_steady");
        }
        JsonNode steadyRule = command.get("until_steady");
        double tolerance = Commands.nonNegative(steadyRule, "tolerance", 0.1);
        long maxNanos = (long) (Commands.nonNegative(steadyRule, "max_ms", 4000) * 1e6);
        BenchClient connected = workloadClient(work);
        Object expected = work.expected();
        List<Long> medians = new ArrayList<>();
        long[] times = new long[calls];
        long begin = System.nanoTime();
        int checked = 0;
        boolean steady = false;
        while (true) {
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                Object actual = invoke(work, connected);
                times[i] = System.nanoTime() - start;
                Optional<String> difference = difference(work, expected, actual);
                if (difference.isPresent()) {
                    return wrongAnswer(work, checked + i + 1, difference.get());
                }
            }
            checked += calls;
            medians.add(Timing.median(times));
            if (Timing.steady(medians, tolerance)) {
                steady = true;
                break;
            }
            if (System.nanoTime() - begin >= maxNanos) {
                break;
            }
        }
        ObjectNode answer = success().put("checked", checked).put("batches", medians.size()).put("steady", steady)
                .put("elapsed_ms", (System.nanoTime() - begin) / 1_000_000L);
        ArrayNode list = answer.putArray("batch_medians_ns");
        medians.forEach(list::add);
        return answer;
    }

    /** One repetition over the transport; its samples go to the workload's buffer, only the count is answered. */
    private ObjectNode measure(JsonNode command) throws Exception {
        PreparedWorkload work = prepared(command, true);
        Commands.Repetition rule = Commands.repetition(command);
        BenchClient connected = workloadClient(work);
        BackgroundTraffic traffic = connected instanceof BackgroundTraffic t ? t : null;
        long[] before = traffic != null ? traffic.backgroundBytes() : null;
        long[] samples = work.isSession()
                ? CalculatorSessions.repetition(calculators(connected), (Long) work.args()[0], rule.calls(),
                        rule.minNanos(), rule.maxCalls())
                : Timing.repetition(connected, work.op(), work.args(), rule.calls(), rule.minNanos(), rule.maxCalls());
        work.addSamples(samples);
        ObjectNode answer = success().put("calls", samples.length);
        if (traffic != null) {
            long[] after = traffic.backgroundBytes();
            answer.putObject("background").put("c2s", after[0] - before[0]).put("s2c", after[1] - before[1]);
        }
        return answer;
    }

    /**
     * Many calls of the workload in flight ({@link Load}) over {@code connections} connections of its own to the
     * connected server, opened for the command and closed after it; the command loop's connection stays as it was.
     * Workers take the connections round robin; a stack that makes one call at a time per connection refuses more
     * calls in flight than connections, before opening any.
     */
    private ObjectNode load(JsonNode command) throws Exception {
        PreparedWorkload work = prepared(command, true);
        if (work.isSession()) {
            throw new IllegalArgumentException("load: " + work.workload().name()
                    + " is a session; load takes one operation per call");
        }
        BenchClient connected = connected();
        LoadPlan plan = LoadPlan.of(command);
        if (plan.inFlight() > plan.connections() && !connected.sharesConnection()) {
            throw new IllegalArgumentException("load: this client makes one call at a time per connection: in_flight "
                    + plan.inFlight() + " needs as many connections (asked " + plan.connections() + ")");
        }
        Load.checkHeap(plan);
        Operation op = work.op();
        Object[] args = work.args();
        List<BenchClient> connections = new ArrayList<>(plan.connections());
        try {
            for (int i = 0; i < plan.connections(); i++) { // each opened and used once before the load (PROTOCOL.md#load)
                connections.add(factory.connect(target));
                connections.get(i).ping();
            }
            ObjectNode answer = success();
            answer.setAll(Load.run(plan, worker -> {
                BenchClient on = connections.get(worker % connections.size());
                return () -> op.invoke(on, args);
            }));
            return answer;
        } finally {
            connections.forEach(ClientSession::closeQuietly);
        }
    }

    private ObjectNode samples(JsonNode command) {
        PreparedWorkload work = prepared(command, false);
        ObjectNode answer = success();
        Commands.putSamples(answer, work.takeSamples());
        return answer;
    }

    /** The reference behaviour in process, no transport: what the contract itself costs with these arguments. */
    private ObjectNode handler(JsonNode command) throws Exception {
        PreparedWorkload work = prepared(command, false);
        Commands.Repetition rule = Commands.repetition(command);
        int repetitions = command.has("repetitions") ? Commands.count(command, "repetitions") : 1;
        List<long[]> lists = new ArrayList<>(repetitions);
        for (int r = 0; r < repetitions; r++) {
            lists.add(work.isSession()
                    ? CalculatorSessions.repetition(new LocalCalculators(), (Long) work.args()[0], rule.calls(),
                            rule.minNanos(), rule.maxCalls())
                    : Timing.repetition(reference, work.op(), work.args(), rule.calls(), rule.minNanos(),
                            rule.maxCalls()));
        }
        ObjectNode answer = success();
        Commands.putSamples(answer, lists);
        return answer;
    }

    /**
     * The named workload's prepared state (built on first use); with {@code overTransport}, refused when the
     * protocol lacks a capability it needs (the handler runs in process and needs none).
     */
    private PreparedWorkload prepared(JsonNode command, boolean overTransport) {
        String name = command.path("workload").asText("");
        Workload workload = files.workload(name);
        if (workload == null) {
            throw new IllegalArgumentException("unknown workload: " + command.path("workload"));
        }
        if (overTransport) {
            String reason = protocol.unsupportedReason(workload.needs());
            if (reason != null) {
                throw new IllegalArgumentException("workload " + name + " is unsupported on " + protocol.name()
                        + ": " + reason);
            }
        }
        return prepared.computeIfAbsent(name, n -> new PreparedWorkload(workload));
    }

    /** One call of the workload; for a session workload one whole session, answering its total. */
    private static Object invoke(PreparedWorkload work, BenchClient connected) throws Exception {
        if (work.isSession()) {
            return CalculatorSessions.session(calculators(connected), (Long) work.args()[0]);
        }
        return work.op().invoke(connected, work.args());
    }

    private static Optional<String> difference(PreparedWorkload work, Object expected, Object actual) {
        if (work.isSession()) {
            return expected.equals(actual) ? Optional.empty()
                    : Optional.of("session total(): expected " + expected + ", actual " + actual);
        }
        return Answers.difference(work.op(), expected, actual);
    }

    private static CalculatorClient calculators(BenchClient connected) {
        if (!(connected instanceof CalculatorClient calculators)) {
            throw new IllegalStateException(CalculatorSessions.NO_REMOTE_OBJECTS);
        }
        return calculators;
    }

    private static ObjectNode wrongAnswer(PreparedWorkload work, int call, String difference) {
        return failure("call " + call + " of " + work.workload().name() + ": " + difference);
    }

    private BenchClient connected() {
        if (client == null) {
            throw new IllegalStateException("not connected: send {\"cmd\": \"connect\"} first");
        }
        return client;
    }

    private static ObjectNode success() {
        return Json.MAPPER.createObjectNode().put("ok", true);
    }

    private static ObjectNode failure(String error) {
        return Json.MAPPER.createObjectNode().put("ok", false).put("error", error);
    }

    @Override
    public void close() throws IOException {
        BenchClient open = client;
        client = null;
        if (open != null) {
            open.close();
        }
    }

    private static void closeQuietly(BenchClient client) {
        try {
            client.close();
        } catch (Exception e) {
            System.err.println("closing a connection: " + e);
        }
    }
}
