package org.rpcmatrix.hessian;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

/**
 * The contract's structs as Hessian objects: plain classes with the contract's field names, because Hessian
 * fills an object field by field (a Java record's final fields cannot be set that way).
 */
final class WireStructs {
    private WireStructs() {
    }

    static final class WireRecord implements Serializable {
        private static final long serialVersionUID = 1L;
        long id;
        String[] tags;
        double[] values;

        static WireRecord of(Record r) {
            WireRecord w = new WireRecord();
            w.id = r.id();
            w.tags = r.tags().toArray(String[]::new);
            w.values = r.values();
            return w;
        }
    }

    static final class WireBook implements Serializable {
        private static final long serialVersionUID = 1L;
        String title;
        String[] authors;
        double price;
        double listPrice;
        String publisher;
        int year;
        int month;
        String[] keywords;
        String isbn;
        int starRating;
        String url;

        static WireBook of(Book b) {
            WireBook w = new WireBook();
            w.title = b.title();
            w.authors = b.authors().toArray(String[]::new);
            w.price = b.price();
            w.listPrice = b.listPrice();
            w.publisher = b.publisher();
            w.year = b.year();
            w.month = b.month();
            w.keywords = b.keywords().toArray(String[]::new);
            w.isbn = b.isbn();
            w.starRating = b.starRating();
            w.url = b.url();
            return w;
        }
    }

    static final class WireItem implements Serializable {
        private static final long serialVersionUID = 1L;
        long id;
        String title;
        String description;
        String category;
        String owner;
        long created;
        long updated;
        int quantity;
        double price;
        /** float32 as a double holding exactly the float's value. */
        double weight;

        static WireItem of(Item i) {
            WireItem w = new WireItem();
            w.id = i.id();
            w.title = i.title();
            w.description = i.description();
            w.category = i.category();
            w.owner = i.owner();
            w.created = i.created();
            w.updated = i.updated();
            w.quantity = i.quantity();
            w.price = i.price();
            w.weight = i.weight();
            return w;
        }
    }

    /** An ArrayList, which Hessian writes as an untyped list (an array would carry a Java type name). */
    static List<WireBook> books(List<Book> books) {
        return new ArrayList<>(books.stream().map(WireBook::of).toList());
    }

    static List<WireItem> items(List<Item> items) {
        return new ArrayList<>(items.stream().map(WireItem::of).toList());
    }
}
