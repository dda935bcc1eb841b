package org.rpcmatrix.soap;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.mapping.WireMapping;

/**
 * SOAP's carriage of the contract's values in the port type and JAXB classes generated from idl/bench.wsdl and
 * bench.xsd, by contract type. Every XSD type is native (xs:byte, xs:short, xs:long, xs:float, xs:double with
 * NaN/INF, xs:base64Binary), so only the containers change shape: a float64[] is a repeated xs:double element
 * (List&lt;Double&gt; in JAXB), structs are JAXB beans; BenchError is the declared fault {@code BenchErrorFault}.
 */
final class SoapMapping implements WireMapping {
    static final SoapMapping INSTANCE = new SoapMapping();

    private SoapMapping() {
    }

    @Override
    public Converter toWire(String type) {
        return switch (type) {
            case "float64[]" -> value -> toList((double[]) value);
            case "Record" -> value -> toWire((Record) value);
            case "Book[]" -> value -> {
                List<Book> books = list(value);
                List<org.rpcmatrix.soap.generated.Book> wire = new ArrayList<>(books.size());
                for (Book book : books) {
                    wire.add(toWire(book));
                }
                return wire;
            };
            case "Item[]" -> value -> {
                List<Item> items = list(value);
                List<org.rpcmatrix.soap.generated.Item> wire = new ArrayList<>(items.size());
                for (Item item : items) {
                    wire.add(toWire(item));
                }
                return wire;
            };
            default -> scalar(type);
        };
    }

    @Override
    public Converter fromWire(String type) {
        return switch (type) {
            case "float64[]" -> value -> toArray(list(value));
            case "Record" -> value -> fromWire((org.rpcmatrix.soap.generated.Record) value);
            case "Book[]" -> value -> {
                List<org.rpcmatrix.soap.generated.Book> wire = list(value);
                List<Book> books = new ArrayList<>();
                for (org.rpcmatrix.soap.generated.Book book : wire) {
                    books.add(fromWire(book));
                }
                return books;
            };
            case "Item[]" -> value -> {
                List<org.rpcmatrix.soap.generated.Item> wire = list(value);
                List<Item> items = new ArrayList<>();
                for (org.rpcmatrix.soap.generated.Item item : wire) {
                    items.add(fromWire(item));
                }
                return items;
            };
            default -> scalar(type);
        };
    }

    private static Converter scalar(String type) {
        return switch (type) {
            case "void", "bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "bytes" -> SAME;
            default -> throw new IllegalArgumentException("no SOAP carriage for " + type);
        };
    }

    @Override
    public Exception fault(org.rpcmatrix.core.BenchError error) {
        return toFault(error);
    }

    @Override
    public Exception error(Exception raised) {
        return raised instanceof org.rpcmatrix.soap.generated.BenchErrorFault fault ? fromFault(fault) : raised;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }

    static List<Double> toList(double[] values) {
        List<Double> list = new ArrayList<>(values.length);
        for (double value : values) {
            list.add(value);
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

    static org.rpcmatrix.soap.generated.Record toWire(Record record) {
        org.rpcmatrix.soap.generated.Record wire = new org.rpcmatrix.soap.generated.Record();
        wire.setId(record.id());
        wire.getTags().addAll(record.tags());
        wire.getValues().addAll(toList(record.values()));
        return wire;
    }

    static Record fromWire(org.rpcmatrix.soap.generated.Record wire) {
        return new Record(wire.getId(), List.copyOf(wire.getTags()), toArray(wire.getValues()));
    }

    static org.rpcmatrix.soap.generated.Book toWire(Book book) {
        org.rpcmatrix.soap.generated.Book wire = new org.rpcmatrix.soap.generated.Book();
        wire.setTitle(book.title());
        wire.getAuthors().addAll(book.authors());
        wire.setPrice(book.price());
        wire.setListPrice(book.listPrice());
        wire.setPublisher(book.publisher());
        wire.setYear(book.year());
        wire.setMonth(book.month());
        wire.getKeywords().addAll(book.keywords());
        wire.setIsbn(book.isbn());
        wire.setStarRating(book.starRating());
        wire.setUrl(book.url());
        return wire;
    }

    static Book fromWire(org.rpcmatrix.soap.generated.Book wire) {
        return new Book(wire.getTitle(), List.copyOf(wire.getAuthors()), wire.getPrice(), wire.getListPrice(),
                wire.getPublisher(), wire.getYear(), wire.getMonth(), List.copyOf(wire.getKeywords()),
                wire.getIsbn(), wire.getStarRating(), wire.getUrl());
    }

    static org.rpcmatrix.soap.generated.Item toWire(Item item) {
        org.rpcmatrix.soap.generated.Item wire = new org.rpcmatrix.soap.generated.Item();
        wire.setId(item.id());
        wire.setTitle(item.title());
        wire.setDescription(item.description());
        wire.setCategory(item.category());
        wire.setOwner(item.owner());
        wire.setCreated(item.created());
        wire.setUpdated(item.updated());
        wire.setQuantity(item.quantity());
        wire.setPrice(item.price());
        wire.setWeight(item.weight());
        return wire;
    }

    static Item fromWire(org.rpcmatrix.soap.generated.Item wire) {
        return new Item(wire.getId(), wire.getTitle(), wire.getDescription(), wire.getCategory(), wire.getOwner(),
                wire.getCreated(), wire.getUpdated(), wire.getQuantity(), wire.getPrice(), wire.getWeight());
    }

    /** The declared fault for the contract's BenchError: code and message in the fault detail. */
    static org.rpcmatrix.soap.generated.BenchErrorFault toFault(org.rpcmatrix.core.BenchError error) {
        org.rpcmatrix.soap.generated.BenchError detail = new org.rpcmatrix.soap.generated.BenchError();
        detail.setCode(error.code());
        detail.setMessage(error.getMessage());
        return new org.rpcmatrix.soap.generated.BenchErrorFault(error.getMessage(), detail);
    }

    static org.rpcmatrix.core.BenchError fromFault(org.rpcmatrix.soap.generated.BenchErrorFault fault) {
        org.rpcmatrix.soap.generated.BenchError detail = fault.getFaultInfo();
        return new org.rpcmatrix.core.BenchError(detail.getCode(), detail.getMessage());
    }
}
