package org.rpcmatrix.javaserial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.reference.ReferenceBench;

/** The structs of RMI and HttpInvoker: their names on the wire, and the contract's values through them. */
class JavaSerialMappingTest {
    private final ReferenceBench reference = new ReferenceBench();

    /** A rename or a new serialVersionUID changes the bytes of every answer that holds a struct. */
    @Test
    void theWireNamesAreFixed() {
        assertEquals("org.rpcmatrix.javaserial.SerialRecord", SerialRecord.class.getName());
        assertEquals("org.rpcmatrix.javaserial.SerialBook", SerialBook.class.getName());
        assertEquals("org.rpcmatrix.javaserial.SerialItem", SerialItem.class.getName());
        for (Class<?> struct : List.of(SerialRecord.class, SerialBook.class, SerialItem.class)) {
            assertEquals(1L, ObjectStreamClass.lookup(struct).getSerialVersionUID(), struct.getName());
        }
    }

    @Test
    void theReferencesStructsGoThereAndBack() throws Exception {
        JavaSerialMapping m = JavaSerialMapping.INSTANCE;
        Record record = reference.getRecord("key");
        Record back = (Record) m.fromWire("Record").convert(serialized(m.toWire("Record").convert(record)));
        assertEquals(record.id(), back.id());
        assertEquals(record.tags(), back.tags());
        assertArrayEquals(record.values(), back.values());
        List<Book> books = reference.searchBooks("q", 3);
        assertEquals(books, m.fromWire("Book[]").convert(serialized(m.toWire("Book[]").convert(books))));
        List<Item> items = reference.getItems(3);
        assertEquals(items, m.fromWire("Item[]").convert(serialized(m.toWire("Item[]").convert(items))));
    }

    private static Object serialized(Object value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
