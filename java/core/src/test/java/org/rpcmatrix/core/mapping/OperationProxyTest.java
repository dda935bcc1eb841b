package org.rpcmatrix.core.mapping;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.reference.ReferenceBench;

/** {@link OperationProxy} and {@link OperationCaller}: a family's interface served and called over the table. */
class OperationProxyTest {
    /** Core's types are Bench's own: nothing converts. */
    private static final WireMapping SAME = new WireMapping() {
        @Override
        public Converter toWire(String type) {
            return SAME;
        }

        @Override
        public Converter fromWire(String type) {
            return SAME;
        }
    };

    /** A family that carries int8 as int, checked, and BenchError as an IOException naming the code. */
    interface WideApi {
        int echoInt8(int value);

        void fail(int code, String message) throws IOException;

        double[] randomDoubles(int count, long seed);
    }

    private static final WireMapping WIDE = new WireMapping() {
        @Override
        public Converter toWire(String type) {
            return type.equals("int8") ? value -> (int) (Byte) value : SAME;
        }

        @Override
        public Converter fromWire(String type) {
            return type.equals("int8") ? value -> {
                int wide = (Integer) value;
                if (wide != (byte) wide) {
                    throw new IllegalArgumentException("int8 out of range: " + wide);
                }
                return (byte) wide;
            } : SAME;
        }

        @Override
        public Exception fault(BenchError error) {
            return new IOException(error.code() + ":" + error.getMessage());
        }

        @Override
        public Exception error(Exception raised) {
            if (raised instanceof IOException e) {
                String[] parts = e.getMessage().split(":", 2);
                return new BenchError(Integer.parseInt(parts[0]), parts[1]);
            }
            return raised;
        }
    };

    @Test
    void everyOperationAnswersAsTheReference() throws Exception {
        ReferenceBench reference = new ReferenceBench();
        Bench served = OperationProxy.serve(Bench.class, reference, SAME);
        OperationCaller<Bench> caller = OperationCaller.over(Bench.class, SAME);
        assertNull(caller.call(served, Operation.PING, new Object[0]));
        assertEquals((byte) -128, caller.call(served, Operation.ECHO_INT8, new Object[] {(byte) -128}));
        assertEquals(Float.MIN_VALUE, served.echoFloat32(Float.MIN_VALUE));
        assertEquals(reference.isPrime(2_147_483_647), served.isPrime(2_147_483_647));
        assertArrayEquals(reference.randomDoubles(5, 42), served.randomDoubles(5, 42));
        assertEquals(reference.getRecord("k").id(), served.getRecord("k").id());
        assertEquals(reference.searchBooks("q", 3), served.searchBooks("q", 3));
        assertEquals(reference.getItems(4), caller.call(served, Operation.GET_ITEMS, new Object[] {4}));
        List<double[]> chunks = served.randomDoublesStream(5, 1, 2);
        assertEquals(3, chunks.size());
        BenchError error = assertThrows(BenchError.class, () -> served.fail(-7, "<&>"));
        assertEquals(-7, error.code());
        assertEquals("<&>", error.getMessage());
    }

    @Test
    void valuesAndErrorsGoThroughTheFamilysMapping() throws Exception {
        WideApi served = OperationProxy.serve(WideApi.class, new ReferenceBench(), WIDE);
        assertEquals(-128, served.echoInt8(-128));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> served.echoInt8(128));
        assertEquals("int8 out of range: 128", refused.getMessage());
        IOException fault = assertThrows(IOException.class, () -> served.fail(42, "boom"));
        assertEquals("42:boom", fault.getMessage());
        // randomDoubles declares nothing: its BenchError's fault is not thrown undeclared, but as IllegalStateException.
        IllegalStateException undeclared = assertThrows(IllegalStateException.class, () -> served.randomDoubles(-1, 0));
        assertInstanceOf(IOException.class, undeclared.getCause());

        OperationCaller<WideApi> caller = OperationCaller.over(WideApi.class, WIDE);
        assertEquals((byte) 127, caller.call(served, Operation.ECHO_INT8, new Object[] {(byte) 127}));
        BenchError error = assertThrows(BenchError.class,
                () -> caller.call(served, Operation.FAIL, new Object[] {42, "boom"}));
        assertEquals(42, error.code());
        assertEquals("boom", error.getMessage());
        UnsupportedOperationException missing = assertThrows(UnsupportedOperationException.class,
                () -> caller.call(served, Operation.PING, new Object[0]));
        assertTrue(missing.getMessage().contains("ping"), missing.getMessage());
    }

    @Test
    void aProxyIsAnObjectWithIdentity() {
        WideApi one = OperationProxy.serve(WideApi.class, new ReferenceBench(), WIDE);
        WideApi other = OperationProxy.serve(WideApi.class, new ReferenceBench(), WIDE);
        assertEquals(one, one);
        assertNotEquals(one, other);
        assertEquals(System.identityHashCode(one), one.hashCode());
        assertTrue(one.toString().contains(WideApi.class.getSimpleName()), one.toString());
    }

    interface NotTheContract {
        void ping();

        void reboot();
    }

    interface WrongArity {
        int echoInt32(int value, int extra);
    }

    @Test
    void anInterfaceOutsideTheContractIsRefusedWhenServedOrCalled() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> OperationProxy.serve(NotTheContract.class, new ReferenceBench(), SAME));
        assertTrue(unknown.getMessage().contains("reboot"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OperationCaller.over(WrongArity.class, SAME));
        assertThrows(IllegalArgumentException.class, () -> OperationProxy.serve(ReferenceBench.class,
                new ReferenceBench(), SAME));
    }

    @Test
    void theSameMethodFindsTheSameHandlerFromManyThreads() throws Exception {
        Bench served = OperationProxy.serve(Bench.class, new ReferenceBench(), SAME);
        Thread[] threads = new Thread[4];
        boolean[] ok = new boolean[threads.length];
        for (int t = 0; t < threads.length; t++) {
            int index = t;
            threads[t] = new Thread(() -> {
                try {
                    for (int i = 0; i < 10_000; i++) {
                        if (served.echoInt32(i) != i || !"s".equals(served.echoString("s"))) {
                            return;
                        }
                    }
                    ok[index] = true;
                } catch (Exception e) {
                    // ok stays false
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        for (boolean b : ok) {
            assertTrue(b);
        }
    }
}
