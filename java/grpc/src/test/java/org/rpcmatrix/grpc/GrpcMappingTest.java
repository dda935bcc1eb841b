package org.rpcmatrix.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.core.reference.ReferenceBench;

class GrpcMappingTest {
    @Test
    void int8AcceptsItsRangeAndRejectsWhatDoesNotFit() {
        assertEquals((byte) -128, GrpcMapping.int8FromWire(-128));
        assertEquals((byte) 127, GrpcMapping.int8FromWire(127));
        assertThrows(IllegalArgumentException.class, () -> GrpcMapping.int8FromWire(128));
        assertThrows(IllegalArgumentException.class, () -> GrpcMapping.int8FromWire(-129));
    }

    @Test
    void int16AcceptsItsRangeAndRejectsWhatDoesNotFit() {
        assertEquals((short) -32768, GrpcMapping.int16FromWire(-32768));
        assertEquals((short) 32767, GrpcMapping.int16FromWire(32767));
        assertThrows(IllegalArgumentException.class, () -> GrpcMapping.int16FromWire(32768));
        assertThrows(IllegalArgumentException.class, () -> GrpcMapping.int16FromWire(Integer.MIN_VALUE));
    }

    @Test
    void doublesKeepEveryBit() {
        double[] values = {-0.0, Double.MIN_VALUE, Double.NaN, Double.NEGATIVE_INFINITY, 0.1};
        assertArrayEquals(values, GrpcMapping.fromWire(GrpcMapping.toWire(values)));
    }

    @Test
    void structsSurviveTheRoundTrip() throws Exception {
        ReferenceBench bench = new ReferenceBench();
        Record record = bench.getRecord("record-42");
        Record back = GrpcMapping.fromWire(GrpcMapping.toWire(record));
        assertEquals(record.id(), back.id());
        assertEquals(record.tags(), back.tags());
        assertArrayEquals(record.values(), back.values());

        List<Book> books = bench.searchBooks("distributed systems", 5);
        assertEquals(books, GrpcMapping.booksFromWire(GrpcMapping.booksToWire(books)));

        List<Item> items = bench.getItems(10);
        assertEquals(items, GrpcMapping.itemsFromWire(GrpcMapping.itemsToWire(items)));
    }
}
