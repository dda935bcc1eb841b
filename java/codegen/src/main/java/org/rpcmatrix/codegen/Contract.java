package org.rpcmatrix.codegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * What the generators read of idl/: the operations of contract.json, in id order, and for a set of registry
 * families (protocols.json) which operations they can carry.
 */
record Contract(List<Op> operations, JsonNode protocols) {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One parameter: its contract name and type. */
    record Param(String name, String type) {
    }

    /**
     * One operation of contract.json: id, name, parameters, return type ("void", "Book[]", "stream float64[]"),
     * whether it declares BenchError ({@code raises}), the capabilities it needs and its {@code about}.
     */
    record Op(int id, String name, List<Param> params, String returns, boolean raises, List<String> needs,
            String about) {

        /** The Java constant of the operation table: echoInt8 → ECHO_INT8, isPrime → IS_PRIME. */
        String constant() {
            return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
        }

        boolean returnsVoid() {
            return returns.equals("void");
        }
    }

    static Contract load(Path idl) throws IOException {
        JsonNode contract = JSON.readTree(idl.resolve("contract.json").toFile());
        List<Op> ops = new ArrayList<>();
        for (JsonNode op : contract.get("operations")) {
            List<Param> params = new ArrayList<>();
            op.get("params").forEach(p -> params.add(new Param(p.get("name").textValue(), p.get("type").textValue())));
            ops.add(new Op(op.get("id").intValue(), op.get("name").textValue(), List.copyOf(params),
                    op.get("returns").textValue(), op.has("raises"), texts(op.get("needs")),
                    op.path("about").asText(null)));
        }
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).id() != i) {
                throw new IllegalArgumentException("contract.json: operation " + ops.get(i).name() + " has id "
                        + ops.get(i).id() + ", expected " + i + " (ids are the table's order)");
            }
        }
        return new Contract(List.copyOf(ops), JSON.readTree(idl.resolve("protocols.json").toFile()).get("protocols"));
    }

    /**
     * The operations every protocol of {@code families} can carry: an operation is left out when one of those
     * protocols lacks a capability it needs (randomDoublesStream, for a family without server streaming).
     */
    List<Op> carriedBy(Collection<String> families) {
        List<String> lacked = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        protocols.fields().forEachRemaining(entry -> {
            JsonNode protocol = entry.getValue();
            if (families.contains(protocol.path("family").asText())) {
                seen.add(protocol.path("family").asText());
                protocol.path("lacks").fieldNames().forEachRemaining(lacked::add);
            }
        });
        for (String family : families) {
            if (!seen.contains(family)) {
                throw new IllegalArgumentException("protocols.json has no protocol of family " + family);
            }
        }
        return operations.stream().filter(op -> op.needs().stream().noneMatch(lacked::contains)).toList();
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array != null) {
            array.forEach(t -> texts.add(t.textValue()));
        }
        return List.copyOf(texts);
    }
}
