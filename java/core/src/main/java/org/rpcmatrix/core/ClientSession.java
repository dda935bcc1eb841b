package org.rpcmatrix.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The client command loop of runner/PROTOCOL.md, one command line in, one JSON answer line out.
 * Holds the connection between commands; {@link #finished()} turns true after {@code quit}.
 */
public final class ClientSession implements AutoCloseable {
    private final ContractFiles files;
    private final ClientOptions options;
    private final ClientFactory factory;
    private final String protocol;
    private BenchClient client;
    private boolean finished;

    /**
     * @param protocol the protocol name in protocol-limits.json ("xmlrpc"); {@code -tls} is appended with --tls
     */
    public ClientSession(ContractFiles files, ClientOptions options, String protocol, ClientFactory factory) {
        this.files = files;
        this.options = options;
        this.factory = factory;
        this.protocol = options.tls() ? protocol + "-tls" : protocol;
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
                return connect();
            case "vectors":
                return vectors(command.path("protocol").asText(protocol));
            case "warmup":
                return warmup(command);
            case "measure":
                return measure(command);
            case "quit":
                close();
                finished = true;
                return success();
            default:
                return failure("unknown command: " + command.path("cmd"));
        }
    }

    private ObjectNode connect() throws Exception {
        close();
        long start = System.nanoTime();
        BenchClient connected = factory.connect(options);
        try {
            connected.ping();
        } catch (Exception | Error e) {
            closeQuietly(connected);
            throw e;
        }
        long end = System.nanoTime();
        client = connected;
        return success().put("instantiation_ns", end - start);
    }

    private ObjectNode vectors(String vectorsProtocol) {
        Map<String, String> limits = files.limits(vectorsProtocol);
        if (limits == null) {
            return failure("protocol " + vectorsProtocol + " is not in protocol-limits.json");
        }
        BenchClient connected = connected();
        List<VectorResult> results = VectorRunner.run(connected, files.vectors(), vectorsProtocol, limits);
        ObjectNode answer = success();
        ArrayNode list = answer.putArray("results");
        for (VectorResult result : results) {
            list.addObject().put("id", result.id()).put("status", result.status()).put("reason", result.reason());
        }
        return answer;
    }

    private ObjectNode warmup(JsonNode command) throws Exception {
        Workload workload = workload(command);
        int calls = count(command, "calls");
        BenchClient connected = connected();
        Object[] args = workload.decodeArgs();
        Object expected = Answers.contractAnswer(workload.op(), args);
        for (int i = 0; i < calls; i++) {
            Object actual = workload.op().invoke(connected, args);
            Optional<String> difference = Answers.difference(workload.op(), expected, actual);
            if (difference.isPresent()) {
                return failure("call " + (i + 1) + " of " + workload.name() + ": " + difference.get());
            }
        }
        return success().put("checked", calls);
    }

    private ObjectNode measure(JsonNode command) throws Exception {
        Workload workload = workload(command);
        int calls = count(command, "calls");
        int repetitions = count(command, "repetitions");
        BenchClient connected = connected();
        Object[] args = workload.decodeArgs();
        Operation op = workload.op();
        long[][] samples = new long[repetitions][calls];
        for (long[] repetition : samples) {
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                op.invoke(connected, args);
                repetition[i] = System.nanoTime() - start;
            }
        }
        ObjectNode answer = success();
        ArrayNode lists = answer.putArray("samples_ns");
        for (long[] repetition : samples) {
            ArrayNode list = lists.addArray();
            for (long sample : repetition) {
                list.add(sample);
            }
        }
        return answer;
    }

    private Workload workload(JsonNode command) {
        String name = command.path("workload").asText("");
        Workload workload = files.workload(name);
        if (workload == null) {
            throw new IllegalArgumentException("unknown workload: " + command.path("workload"));
        }
        if (!workload.belongsTo(protocol)) {
            throw new IllegalArgumentException("workload " + name + " is not part of " + protocol);
        }
        return workload;
    }

    private static int count(JsonNode command, String field) {
        JsonNode value = command.get(field);
        if (value == null || !value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < 0) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-negative integer");
        }
        return value.intValue();
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
    public void close() throws Exception {
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
            System.err.println("closing after a failed connect: " + e);
        }
    }
}
