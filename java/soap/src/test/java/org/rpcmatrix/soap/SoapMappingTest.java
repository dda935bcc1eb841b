package org.rpcmatrix.soap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.conformance.Comparison;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.soap.generated.BenchErrorFault;

class SoapMappingTest {
    @Test
    void benchErrorTravelsInTheDeclaredFaultDetail() {
        BenchErrorFault fault = SoapMapping.toFault(new BenchError(-7, "<&> Grüße"));
        assertEquals(-7, fault.getFaultInfo().getCode());
        assertEquals("<&> Grüße", fault.getFaultInfo().getMessage());
        BenchError back = SoapMapping.fromFault(fault);
        assertEquals(-7, back.code());
        assertEquals("<&> Grüße", back.getMessage());
    }

    @Test
    void doublesKeepTheirBits() {
        double[] values = {Double.NaN, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE};
        assertArrayEquals(values, SoapMapping.toArray(SoapMapping.toList(values)));
    }

    @Test
    void structsRoundTrip() throws Exception {
        ReferenceBench reference = new ReferenceBench();
        org.rpcmatrix.core.contract.Record record = reference.getRecord("key");
        assertEquals(java.util.Optional.empty(), Comparison.EXACT.firstDifference("record", record,
                SoapMapping.fromWire(SoapMapping.toWire(record))));
        org.rpcmatrix.core.contract.Book book = reference.searchBooks("q", 1).get(0);
        assertEquals(book, SoapMapping.fromWire(SoapMapping.toWire(book)));
        List<org.rpcmatrix.core.contract.Item> items = reference.getItems(2);
        assertEquals(items.get(1), SoapMapping.fromWire(SoapMapping.toWire(items.get(1))));
    }
}
