package org.rpcmatrix.corba;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * IIOP's carriage of the contract's values in the IDL compiler's types ({@code rpcmatrix.BenchOperations}), by
 * contract type: every scalar is native (int8 travels as an octet: Java's byte holds the same two's-complement
 * bits), the structs are the generated ones (sequences are arrays there), BenchError the IDL user exception.
 */
final class CorbaMapping implements WireMapping {
    static final CorbaMapping INSTANCE = new CorbaMapping();

    private CorbaMapping() {
    }

    @Override
    public Converter toWire(String type) {
        return switch (type) {
            case "Record" -> value -> toIdl((Record) value);
            case "Book[]" -> value -> booksToIdl(list(value));
            case "Item[]" -> value -> itemsToIdl(list(value));
            default -> scalar(type);
        };
    }

    @Override
    public Converter fromWire(String type) {
        return switch (type) {
            case "Record" -> value -> fromIdl((rpcmatrix.Record) value);
            case "Book[]" -> value -> booksFromIdl((rpcmatrix.Book[]) value);
            case "Item[]" -> value -> itemsFromIdl((rpcmatrix.Item[]) value);
            default -> scalar(type);
        };
    }

    private static Converter scalar(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "bytes",
                    "float64[]" -> SAME;
            default -> throw new IllegalArgumentException("no CORBA carriage for " + type);
        };
    }

    @Override
    public Exception fault(BenchError error) {
        return toIdl(error);
    }

    @Override
    public Exception error(Exception raised) {
        return raised instanceof rpcmatrix.BenchError e ? new BenchError(e.code, e.message) : raised;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }

    static rpcmatrix.Record toIdl(Record r) {
        return new rpcmatrix.Record(r.id(), r.tags().toArray(new String[0]), r.values());
    }

    static Record fromIdl(rpcmatrix.Record r) {
        return new Record(r.id, Arrays.asList(r.tags), r.values);
    }

    static rpcmatrix.Book[] booksToIdl(List<Book> books) {
        rpcmatrix.Book[] idl = new rpcmatrix.Book[books.size()];
        for (int i = 0; i < idl.length; i++) {
            Book b = books.get(i);
            idl[i] = new rpcmatrix.Book(b.title(), b.authors().toArray(new String[0]), b.price(), b.listPrice(),
                    b.publisher(), b.year(), b.month(), b.keywords().toArray(new String[0]), b.isbn(), b.starRating(),
                    b.url());
        }
        return idl;
    }

    static List<Book> booksFromIdl(rpcmatrix.Book[] idl) {
        List<Book> books = new ArrayList<>(idl.length);
        for (rpcmatrix.Book b : idl) {
            books.add(new Book(b.title, Arrays.asList(b.authors), b.price, b.listPrice, b.publisher, b.year, b.month,
                    Arrays.asList(b.keywords), b.isbn, b.starRating, b.url));
        }
        return books;
    }

    static rpcmatrix.Item[] itemsToIdl(List<Item> items) {
        rpcmatrix.Item[] idl = new rpcmatrix.Item[items.size()];
        for (int i = 0; i < idl.length; i++) {
            Item t = items.get(i);
            idl[i] = new rpcmatrix.Item(t.id(), t.title(), t.description(), t.category(), t.owner(), t.created(),
                    t.updated(), t.quantity(), t.price(), t.weight());
        }
        return idl;
    }

    static List<Item> itemsFromIdl(rpcmatrix.Item[] idl) {
        List<Item> items = new ArrayList<>(idl.length);
        for (rpcmatrix.Item t : idl) {
            items.add(new Item(t.id, t.title, t.description, t.category, t.owner, t.created, t.updated, t.quantity,
                    t.price, t.weight));
        }
        return items;
    }

    static rpcmatrix.BenchError toIdl(org.rpcmatrix.core.BenchError e) {
        return new rpcmatrix.BenchError(e.code(), e.getMessage());
    }
}
