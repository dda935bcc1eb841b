package org.rpcmatrix.hessian;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * Hessian's and Burlap's carriage of the contract's values (idl/CONTRACT.md) in {@link HessianApi}'s types, by
 * contract type: range checks for what travels wider than the contract's type, and the structs read back from
 * either a Java peer's objects or another language's maps. A value that does not fit is refused (an
 * {@link InvalidParams}), never truncated. BenchError travels as {@link WireFault} ({@link FaultDetails}).
 */
final class HessianMapping implements WireMapping {
    static final int INVALID_PARAMS = -32602;

    static final HessianMapping INSTANCE = new HessianMapping();

    private HessianMapping() {
    }

    @Override
    public Converter toWire(String type) {
        return switch (type) {
            case "void", "bool", "int32", "int64", "float64", "string", "bytes", "float64[]" -> SAME;
            case "int8" -> value -> (int) (Byte) value;
            case "int16" -> value -> (int) (Short) value;
            case "float32" -> value -> (double) (Float) value;
            case "Record" -> value -> WireStructs.WireRecord.of((Record) value);
            case "Book[]" -> value -> WireStructs.books(contractList(value));
            case "Item[]" -> value -> WireStructs.items(contractList(value));
            default -> throw new IllegalArgumentException("no Hessian carriage for " + type);
        };
    }

    @Override
    public Converter fromWire(String type) {
        return switch (type) {
            case "void", "bool", "int32", "int64", "string", "bytes", "float64[]" -> SAME;
            case "int8" -> value -> (byte) int8((Integer) value);
            case "int16" -> value -> (short) int16((Integer) value);
            case "float64" -> HessianMapping::float64;
            case "float32" -> value -> toFloat32(float64(value));
            case "Record" -> HessianMapping::record;
            case "Book[]" -> HessianMapping::books;
            case "Item[]" -> HessianMapping::items;
            default -> throw new IllegalArgumentException("no Hessian carriage for " + type);
        };
    }

    @Override
    public Exception fault(BenchError error) {
        return new WireFault(error.code(), error.getMessage());
    }

    @Override
    public Exception error(Exception raised) {
        return FaultDetails.toBenchError(raised);
    }

    /** A list of the contract's values, as Operation.invoke returns it. */
    @SuppressWarnings("unchecked")
    private static <T> List<T> contractList(Object value) {
        return (List<T>) value;
    }

    /** A value outside its contract type: a fault with code -32602, like XML-RPC's and JSON-RPC's. */
    static final class InvalidParams extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidParams(String message) {
            super(message, null, false, false);
        }
    }

    static int int8(int value) {
        if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
            throw new InvalidParams("int8 out of range: " + value);
        }
        return value;
    }

    static int int16(int value) {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
            throw new InvalidParams("int16 out of range: " + value);
        }
        return value;
    }

    /** A Hessian double, never an int or long where the contract declares a floating-point number. */
    static double float64(Object value) {
        if (value instanceof Double d) {
            return d;
        }
        throw new InvalidParams("float64 expected, got " + describe(value));
    }

    /** A double that must hold a float32 exactly (NaN included: every NaN is accepted as a float NaN). */
    static double float32(double value) {
        if (!Double.isNaN(value) && (double) (float) value != value) {
            throw new InvalidParams("not a float32: " + value);
        }
        return value;
    }

    static float toFloat32(double value) {
        return (float) float32(value);
    }

    static Record record(Object wire) {
        if (wire instanceof WireStructs.WireRecord r) {
            return new Record(r.id, List.of(r.tags), r.values);
        }
        Map<?, ?> m = map(wire, "Record");
        return new Record(longField(m, "id"), strings(m.get("tags")), doubles(m.get("values")));
    }

    static List<Book> books(Object wire) {
        List<Book> books = new ArrayList<>();
        for (Object o : list(wire)) {
            books.add(book(o));
        }
        return books;
    }

    static List<Item> items(Object wire) {
        List<Item> items = new ArrayList<>();
        for (Object o : list(wire)) {
            items.add(item(o));
        }
        return items;
    }

    private static Book book(Object wire) {
        if (wire instanceof WireStructs.WireBook b) {
            return new Book(b.title, List.of(b.authors), b.price, b.listPrice, b.publisher, b.year, b.month,
                    List.of(b.keywords), b.isbn, b.starRating, b.url);
        }
        Map<?, ?> m = map(wire, "Book");
        return new Book((String) m.get("title"), strings(m.get("authors")), doubleField(m, "price"),
                doubleField(m, "listPrice"), (String) m.get("publisher"), intField(m, "year"),
                intField(m, "month"), strings(m.get("keywords")), (String) m.get("isbn"),
                intField(m, "starRating"), (String) m.get("url"));
    }

    private static Item item(Object wire) {
        if (wire instanceof WireStructs.WireItem i) {
            return new Item(i.id, i.title, i.description, i.category, i.owner, i.created, i.updated, i.quantity,
                    i.price, toFloat32(i.weight));
        }
        Map<?, ?> m = map(wire, "Item");
        return new Item(longField(m, "id"), (String) m.get("title"), (String) m.get("description"),
                (String) m.get("category"), (String) m.get("owner"), longField(m, "created"),
                longField(m, "updated"), intField(m, "quantity"), doubleField(m, "price"),
                toFloat32(doubleField(m, "weight")));
    }

    private static Map<?, ?> map(Object wire, String struct) {
        if (wire instanceof Map<?, ?> m) {
            return m;
        }
        throw new IllegalStateException(struct + " expected, got " + describe(wire));
    }

    /** A list as Hessian hands it over: a java.util.List, or an array when the writer typed it. */
    static List<?> list(Object wire) {
        if (wire instanceof List<?> l) {
            return l;
        }
        if (wire != null && wire.getClass().isArray()) {
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < Array.getLength(wire); i++) {
                l.add(Array.get(wire, i));
            }
            return l;
        }
        throw new IllegalStateException("list expected, got " + describe(wire));
    }

    private static List<String> strings(Object wire) {
        List<String> out = new ArrayList<>();
        for (Object o : list(wire)) {
            out.add((String) o);
        }
        return out;
    }

    private static double[] doubles(Object wire) {
        if (wire instanceof double[] d) {
            return d;
        }
        List<?> l = list(wire);
        double[] out = new double[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) l.get(i)).doubleValue();
        }
        return out;
    }

    private static long longField(Map<?, ?> m, String name) {
        Number n = number(m, name);
        if (!(n instanceof Long || n instanceof Integer)) {
            throw new IllegalStateException(name + ": long expected, got " + describe(n));
        }
        return n.longValue();
    }

    private static int intField(Map<?, ?> m, String name) {
        Number n = number(m, name);
        if (!(n instanceof Integer)) {
            throw new IllegalStateException(name + ": int expected, got " + describe(n));
        }
        return n.intValue();
    }

    private static double doubleField(Map<?, ?> m, String name) {
        return number(m, name).doubleValue();
    }

    private static Number number(Map<?, ?> m, String name) {
        Object v = m.get(name);
        if (v instanceof Number n) {
            return n;
        }
        throw new IllegalStateException(name + ": number expected, got " + describe(v));
    }

    private static String describe(Object o) {
        return o == null ? "null" : o.getClass().getName();
    }
}
