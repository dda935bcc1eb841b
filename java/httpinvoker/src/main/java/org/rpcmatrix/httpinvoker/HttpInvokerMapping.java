package org.rpcmatrix.httpinvoker;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * HttpInvoker's carriage of the contract's values in {@link InvokerApi}'s types, by contract type: Java
 * serialization carries every scalar natively (byte, short, float included) and BenchError as itself, a declared
 * checked exception; only the structs change, to the serializable records of {@link InvokerApi}, their lists
 * as ArrayList.
 */
final class HttpInvokerMapping implements WireMapping {
    static final HttpInvokerMapping INSTANCE = new HttpInvokerMapping();

    private HttpInvokerMapping() {
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
            case "Record" -> value -> fromWire((InvokerApi.InvokerRecord) value);
            case "Book[]" -> value -> booksFromWire(list(value));
            case "Item[]" -> value -> itemsFromWire(list(value));
            default -> scalar(type);
        };
    }

    private static Converter scalar(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "bytes",
                    "float64[]" -> SAME;
            default -> throw new IllegalArgumentException("no HttpInvoker carriage for " + type);
        };
    }

    static InvokerApi.InvokerRecord toWire(Record r) {
        return new InvokerApi.InvokerRecord(r.id(), new ArrayList<>(r.tags()), r.values());
    }

    static Record fromWire(InvokerApi.InvokerRecord r) {
        return new Record(r.id(), r.tags(), r.values());
    }

    static List<InvokerApi.InvokerBook> booksToWire(List<Book> books) {
        List<InvokerApi.InvokerBook> out = new ArrayList<>();
        for (Book b : books) {
            out.add(new InvokerApi.InvokerBook(b.title(), new ArrayList<>(b.authors()), b.price(), b.listPrice(),
                    b.publisher(), b.year(), b.month(), new ArrayList<>(b.keywords()), b.isbn(), b.starRating(),
                    b.url()));
        }
        return out;
    }

    static List<Book> booksFromWire(List<InvokerApi.InvokerBook> books) {
        List<Book> out = new ArrayList<>();
        for (InvokerApi.InvokerBook b : books) {
            out.add(new Book(b.title(), b.authors(), b.price(), b.listPrice(), b.publisher(), b.year(), b.month(),
                    b.keywords(), b.isbn(), b.starRating(), b.url()));
        }
        return out;
    }

    static List<InvokerApi.InvokerItem> itemsToWire(List<Item> items) {
        List<InvokerApi.InvokerItem> out = new ArrayList<>();
        for (Item i : items) {
            out.add(new InvokerApi.InvokerItem(i.id(), i.title(), i.description(), i.category(), i.owner(),
                    i.created(), i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return out;
    }

    static List<Item> itemsFromWire(List<InvokerApi.InvokerItem> items) {
        List<Item> out = new ArrayList<>();
        for (InvokerApi.InvokerItem i : items) {
            out.add(new Item(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(), i.updated(),
                    i.quantity(), i.price(), i.weight()));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }
}
