package org.rpcmatrix.xmlrpc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

/**
 * How contract values travel in strict XML-RPC (CONTRACT.md#carriage): int8/int16 as range-checked {@code int},
 * int64 and timestamps as decimal strings, float32 as a {@code double} that must be exactly a float32, void as
 * boolean true, structs as {@code struct}s with the contract's field names. The receiver checks everything
 * and rejects what does not fit with a {@link CarriageException}, never truncating.
 * On the Java side the library gives Boolean, Integer, String, Double, byte[], Object[] and Map.
 */
final class XmlRpcMapping {
    private static final Pattern DECIMAL_INTEGER = Pattern.compile("-?[0-9]{1,19}");

    private XmlRpcMapping() {
    }

    /** A value that does not fit the type it should carry. */
    static final class CarriageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        CarriageException(String message) {
            super(message);
        }
    }

    /** The XML-RPC form of a contract value of type {@code type}. */
    static Object toWire(String type, Object value) {
        switch (type) {
            case "void":
                return Boolean.TRUE;
            case "bool":
            case "int32":
            case "float64":
            case "string":
            case "bytes":
                return value;
            case "int8":
                return (int) (Byte) value;
            case "int16":
                return (int) (Short) value;
            case "int64":
            case "timestamp":
                return Long.toString((Long) value);
            case "float32":
                return (double) (Float) value;
            case "float64[]":
                return doublesToWire((double[]) value);
            case "Record":
                return recordToWire((Record) value);
            case "Book[]":
                return listToWire(value, b -> bookToWire((Book) b));
            case "Item[]":
                return listToWire(value, i -> itemToWire((Item) i));
            default:
                throw new IllegalArgumentException("XML-RPC carriage of " + type + " is not defined");
        }
    }

    /** The contract value of type {@code type} carried by the XML-RPC value {@code wire}; checked. */
    static Object fromWire(String type, Object wire) {
        switch (type) {
            case "void":
                if (!Boolean.TRUE.equals(wire)) {
                    throw new CarriageException("void must travel as boolean true, got " + describe(wire));
                }
                return null;
            case "bool":
                return as(Boolean.class, wire, type);
            case "int8":
                return (byte) intInRange(wire, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "int16":
                return (short) intInRange(wire, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case "int32":
                return as(Integer.class, wire, type);
            case "int64":
            case "timestamp":
                return int64(wire, type);
            case "float32":
                return float32(wire);
            case "float64":
                return as(Double.class, wire, type);
            case "string":
                return as(String.class, wire, type);
            case "bytes":
                return as(byte[].class, wire, type);
            case "float64[]":
                return doubles(wire);
            case "Record":
                return record(struct(wire, type));
            case "Book[]":
                return list(wire, type, w -> book(struct(w, "Book")));
            case "Item[]":
                return list(wire, type, w -> item(struct(w, "Item")));
            default:
                throw new IllegalArgumentException("XML-RPC carriage of " + type + " is not defined");
        }
    }

    private static Object[] doublesToWire(double[] values) {
        Object[] wire = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            wire[i] = values[i];
        }
        return wire;
    }

    private static Map<String, Object> recordToWire(Record r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", Long.toString(r.id()));
        m.put("tags", r.tags().toArray());
        m.put("values", doublesToWire(r.values()));
        return m;
    }

    private static Map<String, Object> bookToWire(Book b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("title", b.title());
        m.put("authors", b.authors().toArray());
        m.put("price", b.price());
        m.put("listPrice", b.listPrice());
        m.put("publisher", b.publisher());
        m.put("year", b.year());
        m.put("month", b.month());
        m.put("keywords", b.keywords().toArray());
        m.put("isbn", b.isbn());
        m.put("starRating", b.starRating());
        m.put("url", b.url());
        return m;
    }

    private static Map<String, Object> itemToWire(Item it) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", Long.toString(it.id()));
        m.put("title", it.title());
        m.put("description", it.description());
        m.put("category", it.category());
        m.put("owner", it.owner());
        m.put("created", Long.toString(it.created()));
        m.put("updated", Long.toString(it.updated()));
        m.put("quantity", it.quantity());
        m.put("price", it.price());
        m.put("weight", (double) it.weight());
        return m;
    }

    private interface Convert {
        Object apply(Object value);
    }

    private static Object[] listToWire(Object value, Convert convert) {
        List<?> list = (List<?>) value;
        Object[] wire = new Object[list.size()];
        for (int i = 0; i < wire.length; i++) {
            wire[i] = convert.apply(list.get(i));
        }
        return wire;
    }

    private static <T> T as(Class<T> type, Object wire, String contractType) {
        if (!type.isInstance(wire)) {
            throw new CarriageException("expected " + contractType + ", got " + describe(wire));
        }
        return type.cast(wire);
    }

    private static int intInRange(Object wire, String type, int min, int max) {
        int value = as(Integer.class, wire, type);
        if (value < min || value > max) {
            throw new CarriageException(value + " is out of range for " + type);
        }
        return value;
    }

    private static long int64(Object wire, String type) {
        String text = as(String.class, wire, type + " (a string of decimal digits)");
        if (!DECIMAL_INTEGER.matcher(text).matches()) {
            throw new CarriageException("not a decimal " + type + ": \"" + cut(text) + "\"");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new CarriageException(text + " is out of range for " + type);
        }
    }

    private static float float32(Object wire) {
        double value = as(Double.class, wire, "float32");
        float narrowed = (float) value;
        if ((double) narrowed != value && !Double.isNaN(value)) {
            throw new CarriageException(value + " is not exactly a float32");
        }
        return narrowed;
    }

    private static double[] doubles(Object wire) {
        Object[] array = as(Object[].class, wire, "float64[]");
        double[] values = new double[array.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = as(Double.class, array[i], "float64");
        }
        return values;
    }

    private static List<String> strings(Object wire, String field) {
        Object[] array = as(Object[].class, wire, field + " (string[])");
        List<String> values = new ArrayList<>(array.length);
        for (Object element : array) {
            values.add(as(String.class, element, field + " element"));
        }
        return values;
    }

    private static List<Object> list(Object wire, String type, Convert convert) {
        Object[] array = as(Object[].class, wire, type);
        List<Object> values = new ArrayList<>(array.length);
        for (Object element : array) {
            values.add(convert.apply(element));
        }
        return values;
    }

    private static Map<?, ?> struct(Object wire, String type) {
        return as(Map.class, wire, type + " struct");
    }

    private static Object field(Map<?, ?> struct, String name) {
        Object value = struct.get(name);
        if (value == null) {
            throw new CarriageException("struct member " + name + " is missing");
        }
        return value;
    }

    private static Record record(Map<?, ?> m) {
        return new Record(int64(field(m, "id"), "int64"), strings(field(m, "tags"), "tags"), doubles(field(m, "values")));
    }

    private static Book book(Map<?, ?> m) {
        return new Book(as(String.class, field(m, "title"), "title"), strings(field(m, "authors"), "authors"),
                as(Double.class, field(m, "price"), "price"), as(Double.class, field(m, "listPrice"), "listPrice"),
                as(String.class, field(m, "publisher"), "publisher"), as(Integer.class, field(m, "year"), "year"),
                as(Integer.class, field(m, "month"), "month"), strings(field(m, "keywords"), "keywords"),
                as(String.class, field(m, "isbn"), "isbn"), as(Integer.class, field(m, "starRating"), "starRating"),
                as(String.class, field(m, "url"), "url"));
    }

    private static Item item(Map<?, ?> m) {
        return new Item(int64(field(m, "id"), "int64"), as(String.class, field(m, "title"), "title"),
                as(String.class, field(m, "description"), "description"),
                as(String.class, field(m, "category"), "category"), as(String.class, field(m, "owner"), "owner"),
                int64(field(m, "created"), "timestamp"), int64(field(m, "updated"), "timestamp"),
                as(Integer.class, field(m, "quantity"), "quantity"), as(Double.class, field(m, "price"), "price"),
                float32(field(m, "weight")));
    }

    private static String describe(Object wire) {
        return wire == null ? "nothing" : wire.getClass().getSimpleName() + " " + cut(String.valueOf(wire));
    }

    private static String cut(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
