package org.rpcmatrix.javaserial;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * The carriage of the Java serialization families, RMI (rmi, rmi-tls) and HttpInvoker, by contract type: Java
 * serialization carries every scalar natively (byte, short, float included) and BenchError as itself, a declared
 * checked exception; only the structs change, to {@link SerialRecord}, {@link SerialBook} and {@link SerialItem},
 * their lists as ArrayList.
 */
public final class JavaSerialMapping implements WireMapping {
    public static final JavaSerialMapping INSTANCE = new JavaSerialMapping();

    private JavaSerialMapping() {
    }

    @Override
    public Converter toWire(String type) {
        return switch (type) {
            case "Record" -> value -> toWire((Record) value);
            case "Book[]" -> value -> booksToWire(list(value));
            case "Item[]" -> value -> itemsToWire(list(value));
            default -> scalar(type);
        };
    }

    @Override
    public Converter fromWire(String type) {
        return switch (type) {
            case "Record" -> value -> fromWire((SerialRecord) value);
            case "Book[]" -> value -> booksFromWire(list(value));
            case "Item[]" -> value -> itemsFromWire(list(value));
            default -> scalar(type);
        };
    }

    private static Converter scalar(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "bytes",
                    "float64[]" -> SAME;
            default -> throw new IllegalArgumentException("no Java serialization carriage for " + type);
        };
    }

    static SerialRecord toWire(Record r) {
        return new SerialRecord(r.id(), new ArrayList<>(r.tags()), r.values());
    }

    static Record fromWire(SerialRecord r) {
        return new Record(r.id(), r.tags(), r.values());
    }

    static List<SerialBook> booksToWire(List<Book> books) {
        List<SerialBook> wire = new ArrayList<>(books.size());
        for (Book b : books) {
            wire.add(new SerialBook(b.title(), new ArrayList<>(b.authors()), b.price(), b.listPrice(), b.publisher(),
                    b.year(), b.month(), new ArrayList<>(b.keywords()), b.isbn(), b.starRating(), b.url()));
        }
        return wire;
    }

    static List<Book> booksFromWire(List<SerialBook> wire) {
        List<Book> books = new ArrayList<>(wire.size());
        for (SerialBook b : wire) {
            books.add(new Book(b.title(), b.authors(), b.price(), b.listPrice(), b.publisher(), b.year(), b.month(),
                    b.keywords(), b.isbn(), b.starRating(), b.url()));
        }
        return books;
    }

    static List<SerialItem> itemsToWire(List<Item> items) {
        List<SerialItem> wire = new ArrayList<>(items.size());
        for (Item i : items) {
            wire.add(new SerialItem(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(),
                    i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return wire;
    }

    static List<Item> itemsFromWire(List<SerialItem> wire) {
        List<Item> items = new ArrayList<>(wire.size());
        for (SerialItem i : wire) {
            items.add(new Item(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(),
                    i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return items;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }
}
