package org.rpcmatrix.grpc;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.grpc.proto.Books;
import org.rpcmatrix.grpc.proto.Doubles;
import org.rpcmatrix.grpc.proto.Items;

/**
 * Converts between the contract's Java types (org.rpcmatrix.core) and the messages generated from
 * idl/bench.proto. int8 and int16 travel as sint32, so whoever receives one checks its range
 * (CONTRACT.md#carriage): a value that does not fit is rejected, never truncated.
 */
final class GrpcMapping {
    private GrpcMapping() {}

    static byte int8FromWire(int value) {
        if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("int8 out of range: " + value);
        }
        return (byte) value;
    }

    static short int16FromWire(int value) {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
            throw new IllegalArgumentException("int16 out of range: " + value);
        }
        return (short) value;
    }

    static Doubles toWire(double[] values) {
        Doubles.Builder builder = Doubles.newBuilder();
        for (double value : values) {
            builder.addValues(value);
        }
        return builder.build();
    }

    static double[] fromWire(Doubles doubles) {
        double[] values = new double[doubles.getValuesCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = doubles.getValues(i);
        }
        return values;
    }

    static org.rpcmatrix.grpc.proto.Record toWire(Record record) {
        return org.rpcmatrix.grpc.proto.Record.newBuilder()
                .setId(record.id())
                .addAllTags(record.tags())
                .addAllValues(boxed(record.values()))
                .build();
    }

    static Record fromWire(org.rpcmatrix.grpc.proto.Record record) {
        double[] values = new double[record.getValuesCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = record.getValues(i);
        }
        return new Record(record.getId(), List.copyOf(record.getTagsList()), values);
    }

    static Books booksToWire(List<Book> books) {
        Books.Builder builder = Books.newBuilder();
        for (Book book : books) {
            builder.addBooks(org.rpcmatrix.grpc.proto.Book.newBuilder()
                    .setTitle(book.title())
                    .addAllAuthors(book.authors())
                    .setPrice(book.price())
                    .setListPrice(book.listPrice())
                    .setPublisher(book.publisher())
                    .setYear(book.year())
                    .setMonth(book.month())
                    .addAllKeywords(book.keywords())
                    .setIsbn(book.isbn())
                    .setStarRating(book.starRating())
                    .setUrl(book.url()));
        }
        return builder.build();
    }

    static List<Book> booksFromWire(Books books) {
        List<Book> result = new ArrayList<>(books.getBooksCount());
        for (org.rpcmatrix.grpc.proto.Book book : books.getBooksList()) {
            result.add(new Book(book.getTitle(), List.copyOf(book.getAuthorsList()), book.getPrice(),
                    book.getListPrice(), book.getPublisher(), book.getYear(), book.getMonth(),
                    List.copyOf(book.getKeywordsList()), book.getIsbn(), book.getStarRating(), book.getUrl()));
        }
        return result;
    }

    static Items itemsToWire(List<Item> items) {
        Items.Builder builder = Items.newBuilder();
        for (Item item : items) {
            builder.addItems(org.rpcmatrix.grpc.proto.Item.newBuilder()
                    .setId(item.id())
                    .setTitle(item.title())
                    .setDescription(item.description())
                    .setCategory(item.category())
                    .setOwner(item.owner())
                    .setCreated(item.created())
                    .setUpdated(item.updated())
                    .setQuantity(item.quantity())
                    .setPrice(item.price())
                    .setWeight(item.weight()));
        }
        return builder.build();
    }

    static List<Item> itemsFromWire(Items items) {
        List<Item> result = new ArrayList<>(items.getItemsCount());
        for (org.rpcmatrix.grpc.proto.Item item : items.getItemsList()) {
            result.add(new Item(item.getId(), item.getTitle(), item.getDescription(), item.getCategory(),
                    item.getOwner(), item.getCreated(), item.getUpdated(), item.getQuantity(), item.getPrice(),
                    item.getWeight()));
        }
        return result;
    }

    private static List<Double> boxed(double[] values) {
        List<Double> list = new ArrayList<>(values.length);
        for (double value : values) {
            list.add(value);
        }
        return list;
    }
}
