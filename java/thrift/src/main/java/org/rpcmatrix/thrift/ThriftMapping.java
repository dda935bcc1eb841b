package org.rpcmatrix.thrift;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TBaseHelper;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolException;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

/**
 * The contract's carriage on Thrift (CONTRACT.md#carriage) between the core types and the generated ones, by
 * contract type: how a value of each type of idl/contract.json travels in the structs generated from
 * idl/bench.thrift. Converters are picked once per operation ({@link ThriftOperation}), not per call.
 * Thrift has no 32-bit float: a float32 travels as a double, and the receiver checks that it is exactly one.
 */
final class ThriftMapping {
    private ThriftMapping() {
    }

    /** Converts one value; may reject it (a double that is not exactly a float32, a missing field). */
    @FunctionalInterface
    interface Converter {
        Object apply(Object value) throws TException;
    }

    private static final Converter SAME = value -> value;

    /** Contract value to Thrift field value. */
    static Converter toWire(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float64", "string" -> SAME;
            case "float32" -> value -> (double) (Float) value;
            case "bytes" -> value -> ByteBuffer.wrap((byte[]) value);
            case "float64[]" -> value -> toList((double[]) value);
            case "Record" -> value -> toThrift((Record) value);
            case "Book[]" -> value -> booksToThrift(ThriftMapping.<Book>list(value));
            case "Item[]" -> value -> itemsToThrift(ThriftMapping.<Item>list(value));
            default -> throw new IllegalArgumentException("no Thrift mapping for " + type);
        };
    }

    /** Thrift field value to contract value; {@code what} names the value in errors. */
    static Converter fromWire(String type, String what) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float64", "string" -> SAME;
            case "float32" -> value -> toFloat32((Double) value, what);
            // The generated getFieldValue gives binary fields as a right-sized byte[].
            case "bytes" -> value -> value instanceof byte[] bytes ? bytes : toBytes((ByteBuffer) value);
            case "float64[]" -> value -> toArray(ThriftMapping.<Double>list(value));
            case "Record" -> value -> fromThrift((org.rpcmatrix.thrift.gen.Record) value);
            case "Book[]" -> value -> booksFromThrift(list(value));
            case "Item[]" -> value -> itemsFromThrift(list(value));
            default -> throw new IllegalArgumentException("no Thrift mapping for " + type);
        };
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }

    /** The float32 a received double carries; rejects a double that is not exactly a float32 (any NaN is). */
    static float toFloat32(double value, String what) throws TProtocolException {
        float narrowed = (float) value;
        boolean exact = Double.isNaN(value)
                || Double.doubleToRawLongBits(narrowed) == Double.doubleToRawLongBits(value);
        if (!exact) {
            throw new TProtocolException(TProtocolException.INVALID_DATA,
                    what + " is not exactly a float32: " + value);
        }
        return narrowed;
    }

    static byte[] toBytes(ByteBuffer buffer) {
        // Copies: a received binary may share the transport's frame buffer.
        return TBaseHelper.byteBufferToByteArray(buffer);
    }

    static List<Double> toList(double[] values) {
        List<Double> list = new ArrayList<>(values.length);
        for (double v : values) {
            list.add(v);
        }
        return list;
    }

    static double[] toArray(List<Double> values) {
        double[] array = new double[values.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = values.get(i);
        }
        return array;
    }

    static org.rpcmatrix.thrift.gen.Record toThrift(Record r) {
        return new org.rpcmatrix.thrift.gen.Record(r.id(), r.tags(), toList(r.values()));
    }

    static Record fromThrift(org.rpcmatrix.thrift.gen.Record r) throws TProtocolException {
        return new Record(r.getId(), present(r.getTags(), "Record.tags"),
                toArray(present(r.getValues(), "Record.values")));
    }

    static org.rpcmatrix.thrift.gen.Book toThrift(Book b) {
        return new org.rpcmatrix.thrift.gen.Book(b.title(), b.authors(), b.price(), b.listPrice(), b.publisher(),
                b.year(), b.month(), b.keywords(), b.isbn(), b.starRating(), b.url());
    }

    static Book fromThrift(org.rpcmatrix.thrift.gen.Book b) throws TProtocolException {
        return new Book(present(b.getTitle(), "Book.title"), present(b.getAuthors(), "Book.authors"),
                b.getPrice(), b.getListPrice(), present(b.getPublisher(), "Book.publisher"), b.getYear(),
                b.getMonth(), present(b.getKeywords(), "Book.keywords"), present(b.getIsbn(), "Book.isbn"),
                b.getStarRating(), present(b.getUrl(), "Book.url"));
    }

    static org.rpcmatrix.thrift.gen.Item toThrift(Item i) {
        return new org.rpcmatrix.thrift.gen.Item(i.id(), i.title(), i.description(), i.category(), i.owner(),
                i.created(), i.updated(), i.quantity(), i.price(), i.weight());
    }

    static Item fromThrift(org.rpcmatrix.thrift.gen.Item i) throws TProtocolException {
        return new Item(i.getId(), present(i.getTitle(), "Item.title"),
                present(i.getDescription(), "Item.description"), present(i.getCategory(), "Item.category"),
                present(i.getOwner(), "Item.owner"), i.getCreated(), i.getUpdated(), i.getQuantity(),
                i.getPrice(), toFloat32(i.getWeight(), "Item.weight"));
    }

    static List<org.rpcmatrix.thrift.gen.Book> booksToThrift(List<Book> books) {
        List<org.rpcmatrix.thrift.gen.Book> list = new ArrayList<>(books.size());
        for (Book b : books) {
            list.add(toThrift(b));
        }
        return list;
    }

    static List<Book> booksFromThrift(List<org.rpcmatrix.thrift.gen.Book> books) throws TProtocolException {
        List<Book> list = new ArrayList<>(books.size());
        for (org.rpcmatrix.thrift.gen.Book b : books) {
            list.add(fromThrift(b));
        }
        return list;
    }

    static List<org.rpcmatrix.thrift.gen.Item> itemsToThrift(List<Item> items) {
        List<org.rpcmatrix.thrift.gen.Item> list = new ArrayList<>(items.size());
        for (Item i : items) {
            list.add(toThrift(i));
        }
        return list;
    }

    static List<Item> itemsFromThrift(List<org.rpcmatrix.thrift.gen.Item> items) throws TProtocolException {
        List<Item> list = new ArrayList<>(items.size());
        for (org.rpcmatrix.thrift.gen.Item i : items) {
            list.add(fromThrift(i));
        }
        return list;
    }

    /** Thrift leaves an unset object field null: a missing field is a carriage error, not an empty value. */
    private static <T> T present(T value, String field) throws TProtocolException {
        if (value == null) {
            throw new TProtocolException(TProtocolException.INVALID_DATA, field + " is missing");
        }
        return value;
    }
}
