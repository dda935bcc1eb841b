package org.rpcmatrix.core.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Bench;

class InjectedSpinTest {
    @Test
    void withoutTheVariableTheReferenceItselfAnswers() {
        ReferenceBench reference = new ReferenceBench();
        assertSame(reference, InjectedSpin.around(reference, Map.of()));
        assertSame(reference, InjectedSpin.around(reference, Map.of(InjectedSpin.VARIABLE, "0")));
    }

    @Test
    void eachCallSpinsAtLeastTheTimeAskedAndAnswersAsTheReference() throws Exception {
        Bench spun = InjectedSpin.around(new ReferenceBench(), Map.of(InjectedSpin.VARIABLE, "2000"));
        long start = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            spun.ping();
        }
        assertTrue(System.nanoTime() - start >= 5 * 2_000_000L);
        assertEquals("abc", spun.echoString("abc"));
        assertEquals(new ReferenceBench().getItems(10), spun.getItems(10));
    }

    @Test
    void theContractsErrorsPassThroughUnwrapped() {
        Bench spun = InjectedSpin.around(new ReferenceBench(), Map.of(InjectedSpin.VARIABLE, "1"));
        BenchError error = assertThrows(BenchError.class, () -> spun.fail(7, "seven"));
        assertEquals(7, error.code());
    }

    @Test
    void aValueThatIsNotWholeMicrosecondsIsRefused() {
        for (String value : new String[] {"fast", "-1", "1.5", "1000001"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> InjectedSpin.nanos(Map.of(InjectedSpin.VARIABLE, value)));
            assertTrue(e.getMessage().contains(InjectedSpin.VARIABLE), e.getMessage());
        }
    }
}
