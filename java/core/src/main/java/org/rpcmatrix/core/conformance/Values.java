package org.rpcmatrix.core.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.regex.Pattern;
import org.rpcmatrix.core.reference.SplitMix64;

/**
 * Decodes the value encoding of vectors.json and workloads.json (CONTRACT.md#vectors) into Java values:
 * Boolean, Byte, Short, Integer, Long, Float, Double, String, byte[] and double[].
 * Numbers must be parsed with {@code USE_BIG_DECIMAL_FOR_FLOATS} so that no digit is lost on the way.
 */
public final class Values {
    private static final Pattern DECIMAL_INTEGER = Pattern.compile("-?[0-9]+");
    private static final Pattern HEX8 = Pattern.compile("0x[0-9a-fA-F]{8}");
    private static final Pattern HEX16 = Pattern.compile("0x[0-9a-fA-F]{16}");

    private Values() {
    }

    /** Decodes {@code node} as a value of the contract type {@code type} ("int8", "float64[]", ...). */
    public static Object decode(JsonNode node, String type) {
        if (node == null) {
            throw bad(null, type);
        }
        switch (type) {
            case "bool":
                if (!node.isBoolean()) {
                    throw bad(node, type);
                }
                return node.booleanValue();
            case "int8":
                return (byte) integer(node, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "int16":
                return (short) integer(node, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case "int32":
                return (int) integer(node, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case "int64":
            case "timestamp":
                return int64(node);
            case "float32":
                return float32(node);
            case "float64":
                return float64(node);
            case "string":
                return string(node);
            case "bytes":
                return bytes(node);
            case "float64[]":
                return float64Array(node);
            default:
                throw new IllegalArgumentException("no value encoding for type " + type);
        }
    }

    private static long integer(JsonNode node, String type, long min, long max) {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
            throw bad(node, type);
        }
        long value = node.longValue();
        if (value < min || value > max) {
            throw new IllegalArgumentException(node + " is out of range for " + type);
        }
        return value;
    }

    /** int64 values are written as decimal strings, since JSON numbers lose precision past 2^53. */
    static long int64(JsonNode node) {
        if (node == null) {
            throw bad(null, "int64");
        }
        if (node.isTextual() && DECIMAL_INTEGER.matcher(node.textValue()).matches()) {
            try {
                return Long.parseLong(node.textValue());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(node + " is out of range for int64", e);
            }
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        throw bad(node, "int64");
    }

    static float float32(JsonNode node) {
        if (node == null) {
            throw bad(null, "float32");
        }
        if (node.isNumber()) {
            // Parsing the decimal text rounds once, straight to float32 (no double rounding through float64).
            return Float.parseFloat(decimalText(node));
        }
        String text = node.isTextual() ? node.textValue() : null;
        if (text != null && HEX8.matcher(text).matches()) {
            return Float.intBitsToFloat(Integer.parseUnsignedInt(text.substring(2), 16));
        }
        Double special = special(text);
        if (special == null) {
            throw bad(node, "float32");
        }
        return special.floatValue();
    }

    static double float64(JsonNode node) {
        if (node == null) {
            throw bad(null, "float64");
        }
        if (node.isNumber()) {
            return Double.parseDouble(decimalText(node));
        }
        String text = node.isTextual() ? node.textValue() : null;
        if (text != null && HEX16.matcher(text).matches()) {
            return Double.longBitsToDouble(Long.parseUnsignedLong(text.substring(2), 16));
        }
        Double special = special(text);
        if (special == null) {
            throw bad(node, "float64");
        }
        return special;
    }

    private static String decimalText(JsonNode node) {
        BigDecimal decimal = node.decimalValue();
        return decimal.toString();
    }

    private static Double special(String text) {
        if (text == null) {
            return null;
        }
        switch (text) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            case "-0.0":
                return -0.0;
            default:
                return null;
        }
    }

    static String string(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isObject() && node.has("repeat") && node.has("length")) {
            String unit = node.get("repeat").textValue();
            int length = (int) integer(node.get("length"), "length", 0, Integer.MAX_VALUE);
            if (unit == null || unit.isEmpty() || !unit.chars().allMatch(c -> c < 0x80)) {
                throw new IllegalArgumentException("repeat must be a non-empty ASCII string: " + node);
            }
            StringBuilder text = new StringBuilder(length + unit.length());
            while (text.length() < length) {
                text.append(unit);
            }
            text.setLength(length);
            return text.toString();
        }
        throw bad(node, "string");
    }

    static byte[] bytes(JsonNode node) {
        if (node.isObject() && node.has("base64")) {
            return Base64.getDecoder().decode(node.get("base64").textValue());
        }
        if (node.isObject() && node.has("allByteValues") && node.get("allByteValues").asBoolean()) {
            byte[] all = new byte[256];
            for (int i = 0; i < all.length; i++) {
                all[i] = (byte) i;
            }
            return all;
        }
        if (node.isObject() && node.has("randomBytes")) {
            JsonNode spec = node.get("randomBytes");
            int count = (int) integer(spec.get("count"), "count", 0, Integer.MAX_VALUE);
            return randomBytes(count, int64(spec.get("seed")));
        }
        throw bad(node, "bytes");
    }

    /** Each next() gives 8 bytes, least significant first; the last is cut to fit. */
    public static byte[] randomBytes(int count, long seed) {
        SplitMix64 rng = new SplitMix64(seed);
        byte[] bytes = new byte[count];
        for (int i = 0; i < count; i += 8) {
            long word = rng.next();
            for (int b = 0; b < 8 && i + b < count; b++) {
                bytes[i + b] = (byte) (word >>> (8 * b));
            }
        }
        return bytes;
    }

    static double[] float64Array(JsonNode node) {
        if (node.isArray()) {
            double[] values = new double[node.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = float64(node.get(i));
            }
            return values;
        }
        if (node.isObject() && node.has("randomDoubles")) {
            JsonNode spec = node.get("randomDoubles");
            int count = (int) integer(spec.get("count"), "count", 0, Integer.MAX_VALUE);
            long seed = int64(spec.get("seed"));
            double offset = spec.has("offset") ? float64(spec.get("offset")) : 0.0;
            SplitMix64 rng = new SplitMix64(seed);
            double[] values = new double[count];
            for (int i = 0; i < count; i++) {
                values[i] = offset + rng.nextDouble();
            }
            return values;
        }
        throw bad(node, "float64[]");
    }

    private static IllegalArgumentException bad(JsonNode node, String type) {
        String text = String.valueOf(node);
        if (text.length() > 80) {
            text = text.substring(0, 80) + "...";
        }
        return new IllegalArgumentException("not a " + type + " value: " + text);
    }
}
