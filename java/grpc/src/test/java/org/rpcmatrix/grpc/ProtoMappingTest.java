package org.rpcmatrix.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;
import org.rpcmatrix.core.ReferenceBench;

class ProtoMappingTest {
    @Test
    void int8AcceptsItsRangeAndRejectsWhatDoesNotFit() {
        assertEquals((byte) -128, ProtoMapping.int8FromWire(-128));
        assertEquals((byte) 127, ProtoMapping.int8FromWire(127));
        assertThrows(IllegalArgumentException.class, () -> ProtoMapping.int8FromWire(128));
        assertThrows(IllegalArgumentException.class, () -> ProtoMapping.int8FromWire(-129));
    }

    @Test
    void int16AcceptsItsRangeAndRejectsWhatDoesNotFit() {
        assertEquals((short) -32768, ProtoMapping.int16FromWire(-32768));
        assertEquals((short) 32767, ProtoMapping.int16FromWire(32767));
        assertThrows(IllegalArgumentException.class, () -> ProtoMapping.int16FromWire(32768));
        assertThrows(IllegalArgumentException.class, () -> ProtoMapping.int16FromWire(Integer.MIN_VALUE));
    }

    @Test
    void doublesKeepEveryBit() {
        double[] values = {-0.0, Double.MIN_VALUE, Double.NaN, Double.NEGATIVE_INFINITY, 0.1};
        assertArrayEquals(values, ProtoMapping.fromWire(ProtoMapping.toWire(values)));
    }

    @Test
    void structsSurviveTheRoundTrip() throws Exception {
        ReferenceBench bench = new ReferenceBench();
        Record record = bench.getRecord("record-42");
        Record back = ProtoMapping.fromWire(ProtoMapping.toWire(record));
        assertEquals(record.id(), back.id());
        assertEquals(record.tags(), back.tags());
        assertArrayEquals(record.values(), back.values());

        List<Book> books = bench.searchBooks("distributed systems", 5);
        assertEquals(books, ProtoMapping.booksFromWire(ProtoMapping.booksToWire(books)));

        List<Item> items = bench.getItems(10);
        assertEquals(items, ProtoMapping.itemsFromWire(ProtoMapping.itemsToWire(items)));
    }
}
