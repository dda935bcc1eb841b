package org.rpcmatrix.core.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Reading the fields of client commands and writing sample lists (runner/PROTOCOL.md#clients). */
final class Commands {
    private Commands() {
    }

    /** {@code calls}, {@code min_ms} (absent: 0) and {@code max_calls} (absent: {@code calls}) of a timed command. */
    record Repetition(int calls, long minNanos, int maxCalls) {
    }

    static Repetition repetition(JsonNode command) {
        int calls = count(command, "calls");
        double minMs = nonNegative(command, "min_ms", 0);
        int maxCalls = command.has("max_calls") ? count(command, "max_calls") : calls;
        if (maxCalls < calls) {
            throw new IllegalArgumentException("\"max_calls\" (" + maxCalls + ") is below \"calls\" (" + calls + ")");
        }
        return new Repetition(calls, (long) (minMs * 1e6), maxCalls);
    }

    /** The command's {@code port}: 1 to 65535. */
    static int port(JsonNode command) {
        int port = count(command, "port");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("\"port\" must be 1 to 65535, got " + port);
        }
        return port;
    }

    static int count(JsonNode command, String field) {
        JsonNode value = command.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-negative integer");
        }
        return value.intValue();
    }

    /** A non-negative number field, or {@code fallback} when absent. */
    static double nonNegative(JsonNode object, String field, double fallback) {
        JsonNode value = object == null ? null : object.get(field);
        if (value == null) {
            return fallback;
        }
        if (!value.isNumber() || value.doubleValue() < 0) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-negative number");
        }
        return value.doubleValue();
    }

    static void putSamples(ObjectNode answer, List<long[]> lists) {
        ArrayNode all = answer.putArray("samples_ns");
        for (long[] repetition : lists) {
            ArrayNode list = all.addArray();
            for (long sample : repetition) {
                list.add(sample);
            }
        }
    }
}
