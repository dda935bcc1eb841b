package org.rpcmatrix.thrift;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.thrift.TException;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;

/**
 * The Thrift type mapping, by contract type: how a value of each type of idl/contract.json travels in the
 * structs generated from idl/bench.thrift. Converters are picked once per operation, not per call.
 */
final class ThriftTypes {
    private ThriftTypes() {
    }

    /** Converts one value; may reject it (a double that is not exactly a float32, a missing field). */
    @FunctionalInterface
    interface Converter {
        Object apply(Object value) throws TException;
    }

    private static final Converter SAME = value -> value;

    /** Contract value to Thrift field value. */
    static Converter toThrift(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float64", "string" -> SAME;
            case "float32" -> value -> (double) (Float) value;
            case "bytes" -> value -> ByteBuffer.wrap((byte[]) value);
            case "float64[]" -> value -> ThriftMapping.toList((double[]) value);
            case "Record" -> value -> ThriftMapping.toThrift((Record) value);
            case "Book[]" -> value -> ThriftMapping.booksToThrift(ThriftTypes.<Book>list(value));
            case "Item[]" -> value -> ThriftMapping.itemsToThrift(ThriftTypes.<Item>list(value));
            default -> throw new IllegalArgumentException("no Thrift mapping for " + type);
        };
    }

    /** Thrift field value to contract value; {@code what} names the value in errors. */
    static Converter fromThrift(String type, String what) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float64", "string" -> SAME;
            case "float32" -> value -> ThriftMapping.toFloat32((Double) value, what);
            // The generated getFieldValue gives binary fields as a right-sized byte[].
            case "bytes" -> value -> value instanceof byte[] bytes ? bytes : ThriftMapping.toBytes((ByteBuffer) value);
            case "float64[]" -> value -> ThriftMapping.toArray(ThriftTypes.<Double>list(value));
            case "Record" -> value -> ThriftMapping.fromThrift((org.rpcmatrix.thrift.gen.Record) value);
            case "Book[]" -> value -> ThriftMapping.booksFromThrift(list(value));
            case "Item[]" -> value -> ThriftMapping.itemsFromThrift(list(value));
            default -> throw new IllegalArgumentException("no Thrift mapping for " + type);
        };
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }
}
