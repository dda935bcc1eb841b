package org.rpcmatrix.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.rmi.NoSuchObjectException;
import java.rmi.server.UnicastRemoteObject;
import org.junit.jupiter.api.Test;

/** The server holds each calculator from create() to release(), whatever RMI's distributed GC does. */
class CalculatorFactoryServantTest {
    @Test
    void eachCalculatorIsHeldUntilItsRelease() throws Exception {
        CalculatorFactoryServant factory = new CalculatorFactoryServant(o -> UnicastRemoteObject.exportObject(o, 0));
        RemoteCalculator first = factory.create();
        RemoteCalculator second = factory.create();
        assertEquals(2, factory.live());
        System.gc();
        assertEquals(3, first.add(3));
        first.release();
        assertEquals(1, factory.live());
        assertThrows(NoSuchObjectException.class, () -> first.add(1));
        assertEquals(5, second.add(5));
        second.release();
        assertEquals(0, factory.live());
    }
}
