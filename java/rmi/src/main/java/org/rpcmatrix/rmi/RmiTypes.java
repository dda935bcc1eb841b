package org.rpcmatrix.rmi;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;

/**
 * The contract's structs as Serializable records (core's are not Serializable) and the conversions both ways.
 * Lists travel as ArrayList, a class the server's deserialization filter allows.
 */
public final class RmiTypes {
    private RmiTypes() {
    }

    public record RmiRecord(long id, ArrayList<String> tags, double[] values) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    public record RmiBook(String title, ArrayList<String> authors, double price, double listPrice, String publisher,
            int year, int month, ArrayList<String> keywords, String isbn, int starRating, String url)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    public record RmiItem(long id, String title, String description, String category, String owner,
            long created, long updated, int quantity, double price, float weight) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    static RmiRecord toWire(Record r) {
        return new RmiRecord(r.id(), new ArrayList<>(r.tags()), r.values());
    }

    static Record fromWire(RmiRecord r) {
        return new Record(r.id(), r.tags(), r.values());
    }

    static List<RmiBook> booksToWire(List<Book> books) {
        List<RmiBook> wire = new ArrayList<>(books.size());
        for (Book b : books) {
            wire.add(new RmiBook(b.title(), new ArrayList<>(b.authors()), b.price(), b.listPrice(), b.publisher(),
                    b.year(), b.month(), new ArrayList<>(b.keywords()), b.isbn(), b.starRating(), b.url()));
        }
        return wire;
    }

    static List<Book> booksFromWire(List<RmiBook> wire) {
        List<Book> books = new ArrayList<>(wire.size());
        for (RmiBook b : wire) {
            books.add(new Book(b.title(), b.authors(), b.price(), b.listPrice(), b.publisher(), b.year(), b.month(),
                    b.keywords(), b.isbn(), b.starRating(), b.url()));
        }
        return books;
    }

    static List<RmiItem> itemsToWire(List<Item> items) {
        List<RmiItem> wire = new ArrayList<>(items.size());
        for (Item i : items) {
            wire.add(new RmiItem(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(),
                    i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return wire;
    }

    static List<Item> itemsFromWire(List<RmiItem> wire) {
        List<Item> items = new ArrayList<>(wire.size());
        for (RmiItem i : wire) {
            items.add(new Item(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(),
                    i.updated(), i.quantity(), i.price(), i.weight()));
        }
        return items;
    }
}
