package org.rpcmatrix.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a client reads from the idl folder: vectors, workloads and protocol limits. */
public final class ContractFiles {
    private final List<Vector> vectors;
    private final Map<String, Workload> workloads;
    private final Map<String, Map<String, String>> limits;

    private ContractFiles(List<Vector> vectors, Map<String, Workload> workloads,
            Map<String, Map<String, String>> limits) {
        this.vectors = vectors;
        this.workloads = workloads;
        this.limits = limits;
    }

    public static ContractFiles load(Path idl) throws IOException {
        JsonNode vectorsFile = Json.MAPPER.readTree(idl.resolve("vectors.json").toFile());
        JsonNode workloadsFile = Json.MAPPER.readTree(idl.resolve("workloads.json").toFile());
        JsonNode limitsFile = Json.MAPPER.readTree(idl.resolve("protocol-limits.json").toFile());
        return new ContractFiles(vectors(vectorsFile), workloads(workloadsFile), limits(limitsFile));
    }

    public List<Vector> vectors() {
        return vectors;
    }

    /** The workload with this name, or null. */
    public Workload workload(String name) {
        return workloads.get(name);
    }

    /** The tag-to-reason limits of {@code protocol}, or null when protocol-limits.json does not know it. */
    public Map<String, String> limits(String protocol) {
        return limits.get(protocol);
    }

    private static List<Vector> vectors(JsonNode file) {
        List<Vector> vectors = new ArrayList<>();
        for (JsonNode v : required(file, "vectors")) {
            String id = required(v, "id").textValue();
            BenchError expectedError = null;
            if (v.has("expect_error")) {
                JsonNode error = v.get("expect_error");
                expectedError = new BenchError(required(error, "code").intValue(), required(error, "message").textValue());
            }
            boolean expectContract = v.has("expect") && "contract".equals(v.get("expect").textValue());
            if (v.has("expect") && !expectContract) {
                throw new IllegalArgumentException("vector " + id + ": unknown expect " + v.get("expect"));
            }
            vectors.add(new Vector(id, operation(v, id), required(v, "args"), expectContract, expectedError,
                    strings(v.get("tags")), strings(v.get("protocols"))));
        }
        return Collections.unmodifiableList(vectors);
    }

    private static Map<String, Workload> workloads(JsonNode file) {
        Map<String, Workload> workloads = new LinkedHashMap<>();
        for (JsonNode w : required(file, "workloads")) {
            String name = required(w, "name").textValue();
            workloads.put(name, new Workload(name, operation(w, name), required(w, "args"),
                    required(w, "size").textValue(), strings(w.get("protocols"))));
        }
        return Collections.unmodifiableMap(workloads);
    }

    private static Map<String, Map<String, String>> limits(JsonNode file) {
        Map<String, Map<String, String>> limits = new LinkedHashMap<>();
        required(file, "limits").fields().forEachRemaining(protocol -> {
            Map<String, String> reasons = new LinkedHashMap<>();
            protocol.getValue().fields().forEachRemaining(tag -> reasons.put(tag.getKey(), tag.getValue().textValue()));
            limits.put(protocol.getKey(), Collections.unmodifiableMap(reasons));
        });
        return Collections.unmodifiableMap(limits);
    }

    private static Operation operation(JsonNode entry, String name) {
        String opName = required(entry, "op").textValue();
        Operation op = Operation.byName(opName);
        if (op == null) {
            throw new IllegalArgumentException(name + ": unknown operation " + opName);
        }
        return op;
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        if (array != null) {
            array.forEach(s -> strings.add(s.textValue()));
        }
        return List.copyOf(strings);
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new IllegalArgumentException("missing \"" + field + "\" in " + node);
        }
        return value;
    }
}
