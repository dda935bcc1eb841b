package org.rpcmatrix.jsonrpc;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.lang.reflect.Type;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * JSON-RPC's carriage of the contract's values (idl/CONTRACT.md) in {@link JsonRpcApi}'s types, by contract
 * type, and the Jackson mapper both sides use. Jackson carries every type as its Java type (long read exactly,
 * byte[] as standard padded base64, records by their component names, which are the contract's field names)
 * except int8 and int16, which travel as JSON integers read into {@code int} and range-checked: the contract
 * wants a refusal (-32602) where a narrowing conversion would pass silently.
 */
final class JsonRpcMapping implements WireMapping {
    static final JsonRpcMapping INSTANCE = new JsonRpcMapping();

    private static final Type BOOKS = TypeFactory.defaultInstance().constructCollectionType(List.class, Book.class);
    private static final Type ITEMS = TypeFactory.defaultInstance().constructCollectionType(List.class, Item.class);

    private JsonRpcMapping() {
    }

    /** A value outside its contract type, answered with JSON-RPC's "Invalid params" (-32602). */
    static final class InvalidParams extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidParams(String message) {
            super(message);
        }
    }

    /** Jackson's defaults, and a missing primitive refused rather than read as 0. */
    static ObjectMapper objectMapper() {
        return builder().build();
    }

    /**
     * The server's reading of arguments: as {@link #objectMapper()}, and a value of the wrong JSON type refused
     * (-32602) where Jackson would coerce it: a string for a number or a boolean ("23" read as 23; CONTRACT.md:
     * int64 is "never a JSON string"), a number for a boolean, a fraction for an integer (1.5 read as 1, a
     * silent truncation). Any JSON number is still a float (CONTRACT.md). Writing is the same as objectMapper's.
     */
    static ObjectMapper serverMapper() {
        return builder()
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .build();
    }

    private static JsonMapper.Builder builder() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    @Override
    public Converter toWire(String type) {
        return switch (type) {
            case "int8" -> value -> (int) (Byte) value;
            case "int16" -> value -> (int) (Short) value;
            default -> known(type);
        };
    }

    /**
     * The server's reading of an argument: int8 and int16 refused (InvalidParams) when out of range, and null,
     * which no contract type has (Jackson reads a JSON null into a String, byte[] or double[]), refused.
     */
    @Override
    public Converter fromWire(String type) {
        return switch (type) {
            case "int8" -> value -> (byte) inRange((Integer) value, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "int16" -> value -> (short) inRange((Integer) value, type, Short.MIN_VALUE, Short.MAX_VALUE);
            default -> {
                answerType(type);
                yield value -> {
                    if (value == null) {
                        throw new InvalidParams(type + " must not be null");
                    }
                    return value;
                };
            }
        };
    }

    private static Converter known(String type) {
        answerType(type);
        return SAME;
    }

    private static int inRange(int value, String type, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidParams(type + " out of range: " + value);
        }
        return value;
    }

    /** The Java type the client reads an answer of {@code type} as. */
    static Type answerType(String type) {
        return switch (type) {
            case "void" -> Object.class;
            case "bool" -> Boolean.class;
            case "int8", "int16", "int32" -> Integer.class;
            case "int64" -> Long.class;
            case "float32" -> Float.class;
            case "float64" -> Double.class;
            case "string" -> String.class;
            case "bytes" -> byte[].class;
            case "float64[]" -> double[].class;
            case "Record" -> Record.class;
            case "Book[]" -> BOOKS;
            case "Item[]" -> ITEMS;
            default -> throw new IllegalArgumentException("no JSON-RPC type for " + type);
        };
    }

    /** The client's reading of an answer: int8 and int16 narrowed, refusing what does not fit (never truncated). */
    static Object answerFromWire(String type, Object result) {
        return switch (type) {
            case "void" -> null;
            case "int8" -> {
                int v = (Integer) result;
                if (v != (byte) v) {
                    throw new IllegalStateException("int8 out of range: " + v);
                }
                yield (byte) v;
            }
            case "int16" -> {
                int v = (Integer) result;
                if (v != (short) v) {
                    throw new IllegalStateException("int16 out of range: " + v);
                }
                yield (short) v;
            }
            default -> result;
        };
    }
}
