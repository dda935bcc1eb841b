package org.rpcmatrix.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.thrift.protocol.TProtocolException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Record;

class ThriftMappingTest {

    @ParameterizedTest
    @ValueSource(floats = {1.5f, 0.1f, Float.MIN_VALUE, Float.MAX_VALUE, 0x1.fffffcp-127f, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY})
    void acceptsEveryDoubleThatIsAFloat32(float value) throws Exception {
        assertEquals(Float.floatToRawIntBits(value), Float.floatToRawIntBits(ThriftMapping.toFloat32(value, "v")));
    }

    @Test
    void keepsTheSignOfZeroAndAcceptsNaN() throws Exception {
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(ThriftMapping.toFloat32(-0.0, "v")));
        assertTrue(Float.isNaN(ThriftMapping.toFloat32(Double.NaN, "v")));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.1, Math.PI, 1e300, Double.MIN_VALUE, Double.MAX_VALUE, 3.4028235677973366e38})
    void rejectsADoubleThatIsNotExactlyAFloat32(double value) {
        TProtocolException e = assertThrows(TProtocolException.class, () -> ThriftMapping.toFloat32(value, "v"));
        assertTrue(e.getMessage().contains("not exactly a float32"), e.getMessage());
    }

    @Test
    void itemsRoundTripAndTheirWeightIsChecked() throws Exception {
        Item item = new Item(-7, "t", "d", "c", "o", 1_000_000_000_000L, 1_000_000_000_001L, -3, 12.5, 0.25f);
        assertEquals(item, ThriftMapping.fromThrift(ThriftMapping.toThrift(item)));

        org.rpcmatrix.thrift.gen.Item wide = ThriftMapping.toThrift(item).setWeight(0.1);
        assertThrows(TProtocolException.class, () -> ThriftMapping.fromThrift(wide));
    }

    @Test
    void aMissingFieldIsAnErrorNotAnEmptyValue() {
        org.rpcmatrix.thrift.gen.Record record = ThriftMapping.toThrift(new Record(1, List.of("a"), new double[] {2}));
        record.setTags(null);
        TProtocolException e = assertThrows(TProtocolException.class, () -> ThriftMapping.fromThrift(record));
        assertTrue(e.getMessage().contains("Record.tags"), e.getMessage());
    }

    @Test
    void receivedBinariesAreCopiedOutOfTheirBuffer() {
        java.nio.ByteBuffer frame = java.nio.ByteBuffer.wrap(new byte[] {9, 1, 2, 3, 9}, 1, 3);
        byte[] bytes = ThriftMapping.toBytes(frame);
        assertEquals(3, bytes.length);
        assertEquals(1, bytes[0]);
        assertEquals(3, bytes[2]);
    }
}
