package org.rpcmatrix.core.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/**
 * What a client reads from the idl folder: the protocol registry, the operations' needs (contract.json),
 * the vectors and the workloads. A vector's or workload's needs are its own and its operation's.
 */
public final class ContractFiles {
    private final ProtocolRegistry registry;
    private final List<Vector> vectors;
    private final Map<String, Workload> workloads;

    private ContractFiles(ProtocolRegistry registry, List<Vector> vectors, Map<String, Workload> workloads) {
        this.registry = registry;
        this.vectors = vectors;
        this.workloads = workloads;
    }

    public static ContractFiles load(Path idl) throws IOException {
        Map<Operation, List<String>> opNeeds = operationNeeds(Json.MAPPER.readTree(idl.resolve("contract.json").toFile()));
        JsonNode vectorsFile = Json.MAPPER.readTree(idl.resolve("vectors.json").toFile());
        JsonNode workloadsFile = Json.MAPPER.readTree(idl.resolve("workloads.json").toFile());
        return new ContractFiles(ProtocolRegistry.load(idl), vectors(vectorsFile, opNeeds),
                workloads(workloadsFile, opNeeds));
    }

    public ProtocolRegistry registry() {
        return registry;
    }

    public List<Vector> vectors() {
        return vectors;
    }

    /** The workload with this name, or null. */
    public Workload workload(String name) {
        return workloads.get(name);
    }

    private static Map<Operation, List<String>> operationNeeds(JsonNode contract) {
        Map<Operation, List<String>> needs = new EnumMap<>(Operation.class);
        for (JsonNode op : required(contract, "operations")) {
            Operation operation = Operation.byName(required(op, "name").textValue());
            if (operation != null) {
                needs.put(operation, strings(op.get("needs")));
            }
        }
        return needs;
    }

    private static List<Vector> vectors(JsonNode file, Map<Operation, List<String>> opNeeds) {
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
            Operation op = operation(v, id);
            vectors.add(new Vector(id, op, v.has("args") ? v.get("args") : Json.MAPPER.createArrayNode(),
                    expectContract, expectedError, union(strings(v.get("needs")), op == null ? null : opNeeds.get(op)),
                    text(v, "session"), text(v, "script"), text(v, "attack")));
        }
        return Collections.unmodifiableList(vectors);
    }

    private static Map<String, Workload> workloads(JsonNode file, Map<Operation, List<String>> opNeeds) {
        Map<String, Workload> workloads = new LinkedHashMap<>();
        for (JsonNode w : required(file, "workloads")) {
            String name = required(w, "name").textValue();
            Operation op = operation(w, name);
            workloads.put(name, new Workload(name, op, required(w, "args"), required(w, "size").textValue(),
                    union(strings(w.get("needs")), op == null ? null : opNeeds.get(op)), text(w, "session")));
        }
        return Collections.unmodifiableMap(workloads);
    }

    private static List<String> union(List<String> own, List<String> operation) {
        Set<String> all = new LinkedHashSet<>(own);
        if (operation != null) {
            all.addAll(operation);
        }
        return List.copyOf(all);
    }

    /** The entry's operation; null for a session entry, which names a session instead (CONTRACT.md#objects). */
    private static Operation operation(JsonNode entry, String name) {
        if (!entry.has("op") && entry.has("session")) {
            return null;
        }
        String opName = required(entry, "op").textValue();
        Operation op = Operation.byName(opName);
        if (op == null) {
            throw new IllegalArgumentException(name + ": unknown operation " + opName);
        }
        return op;
    }

    private static String text(JsonNode entry, String field) {
        return entry.has(field) ? entry.get(field).textValue() : null;
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
