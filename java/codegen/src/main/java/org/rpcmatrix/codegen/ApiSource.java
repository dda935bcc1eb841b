package org.rpcmatrix.codegen;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.rpcmatrix.codegen.Contract.Op;
import org.rpcmatrix.codegen.Contract.Param;

/**
 * The Java interface a family's library dispatches on (Caucho's skeletons and proxies, jsonrpc4j, Spring's
 * HttpInvoker, RMI), one method per operation named as the contract's, its types as the family carries them.
 * A module describes its interface in a carriage file (its {@code api.json}), never an operation:
 * <ul>
 * <li>{@code interface}: the interface's class name; {@code about}: its javadoc;</li>
 * <li>{@code families}: the registry families that use it; an operation needing a capability one of their
 * protocols lacks is left out;</li>
 * <li>{@code types}: a contract type's Java type where it is not core's (Hessian's int8 is an {@code int}),
 * {@code params} and {@code results} the same for parameters or results only;</li>
 * <li>{@code extends}, {@code throws} (every method) and {@code raises} (what an operation that raises
 * BenchError declares).</li>
 * </ul>
 * Several files are read in order, a later one adding to or replacing what an earlier one said (the types of
 * the Java serialization families are written once and shared by RMI and HttpInvoker).
 */
final class ApiSource {
    private final Map<String, String> scalars = new HashMap<>();
    private final Map<String, JsonNode> values = new HashMap<>();
    private final Map<String, String> types = new HashMap<>();
    private final Map<String, String> params = new HashMap<>();
    private final Map<String, String> results = new HashMap<>();

    private ApiSource() {
    }

    /** The carriage described by {@code files}, merged in order. */
    static ApiSource merged(List<JsonNode> files) {
        ApiSource api = new ApiSource();
        for (JsonNode file : files) {
            file.fields().forEachRemaining(entry -> {
                switch (entry.getKey()) {
                    case "types" -> putAll(api.types, entry.getValue());
                    case "params" -> putAll(api.params, entry.getValue());
                    case "results" -> putAll(api.results, entry.getValue());
                    case "interface", "about" -> api.scalars.put(entry.getKey(), entry.getValue().textValue());
                    case "families", "extends", "throws", "raises" -> api.values.put(entry.getKey(), entry.getValue());
                    default -> throw new IllegalArgumentException("unknown carriage key " + entry.getKey());
                }
            });
        }
        if (!api.scalars.containsKey("interface") || !api.values.containsKey("families")) {
            throw new IllegalArgumentException("a carriage names its \"interface\" and \"families\"");
        }
        return api;
    }

    SourceFile source(Contract contract, String generatedFrom) {
        String qualified = scalars.get("interface");
        int dot = qualified.lastIndexOf('.');
        SourceFile f = new SourceFile(qualified.substring(0, dot), qualified.substring(dot + 1), generatedFrom);
        List<String> extended = texts("extends");
        StringJoiner supers = new StringJoiner(", ", " extends ", "").setEmptyValue("");
        extended.forEach(e -> supers.add(f.type(e)));
        if (scalars.containsKey("about")) {
            f.line(Comments.block(scalars.get("about"), ""));
        }
        f.line("public interface " + qualified.substring(dot + 1) + supers + " {");
        List<String> methods = new ArrayList<>();
        for (Op op : contract.carriedBy(texts("families"))) {
            StringJoiner declared = new StringJoiner(", ", " throws ", "").setEmptyValue("");
            texts("throws").forEach(t -> declared.add(f.type(t)));
            if (op.raises()) {
                texts("raises").forEach(t -> declared.add(f.type(t)));
            }
            StringJoiner ps = new StringJoiner(", ");
            for (Param p : op.params()) {
                ps.add(f.type(javaType(params, p.type())) + " " + p.name());
            }
            String result = f.type(javaType(results, op.returns()));
            methods.add("    " + result + " " + op.name() + "(" + ps + ")" + declared + ";");
        }
        f.line(String.join("\n\n", methods));
        f.line("}");
        return f;
    }

    /** The family's Java type of a contract type: its own for parameters or results, its own, or core's. */
    private String javaType(Map<String, String> side, String type) {
        String own = side.getOrDefault(type, types.get(type));
        return own != null ? own : JavaTypes.of(type);
    }

    private List<String> texts(String key) {
        List<String> texts = new ArrayList<>();
        JsonNode array = values.get(key);
        if (array != null) {
            array.forEach(t -> texts.add(t.textValue()));
        }
        return texts;
    }

    private static void putAll(Map<String, String> map, JsonNode object) {
        object.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().textValue()));
    }
}
