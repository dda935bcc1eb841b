package org.rpcmatrix.rmi;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * RMI's carriage of the contract's values in {@link RemoteBench}'s types, by contract type: Java serialization
 * carries every scalar natively and BenchError as itself (declared); the structs travel as the records of
 * {@link RmiTypes}.
 */
final class RmiMapping implements WireMapping {
    static final RmiMapping INSTANCE = new RmiMapping();

    private RmiMapping() {
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
            case "Record" -> value -> fromWire((RmiTypes.RmiRecord) value);
            case "Book[]" -> value -> booksFromWire(list(value));
            case "Item[]" -> value -> itemsFromWire(list(value));
            default -> scalar(type);
        };
    }

    private static Converter scalar(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "bytes",
                    "float64[]" -> SAME;
            default -> throw new IllegalArgumentException("no RMI carriage for " + type);
        };
    }

    static RmiTypes.RmiRecord toWire(Record r) {
        return new RmiTypes.RmiRecord(r.id(), new ArrayList<>(r.tags()), r.values());
    }

    static Record fromWire(RmiTypes.RmiRecord r) {
        return new Record(r.id(), r.tags(), r.values());
    }

    static List<RmiTypes.RmiBook> booksToWire(List<Book> books) {
        List<RmiTypes.RmiBook> wire = new ArrayList<>(books.size());
        for (Book b : books) {
            wire.add(new RmiTypes.RmiBook(b.title(), new ArrayList<>(b.authors()), b.price(), b.listPrice(),
                    b.publisher(), b.year(), b.month(), new ArrayList<>(b.keywords()), b.isbn(), b.starRating(),
                    b.url()));
        }
        return wire;
    }

    static List<Book> booksFromWire(List<RmiTypes.RmiBook> wire) {
        List<Book> books = new ArrayList<>(wire.size());
        for (RmiTypes.RmiBook b : wire) {
            books.add(new Book(b.title(), b.authors(), b.price(), b.listPrice(), b.publisher(), b.year(), b.month(),
                    b.keywords(), b.isbn(), b.starRating(), b.url()));
        }
        return books;
    }

    static List<RmiTypes.RmiItem> itemsToWire(List<Item> items) {
        List<RmiTypes.RmiItem> wire = new ArrayList<>(items.size());
        for (Item i : items) {
            wire.add(new RmiTypes.RmiItem(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(),
                    i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return wire;
    }

    static List<Item> itemsFromWire(List<RmiTypes.RmiItem> wire) {
        List<Item> items = new ArrayList<>(wire.size());
        for (RmiTypes.RmiItem i : wire) {
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
