package org.rpcmatrix.rmi;

import java.rmi.NoSuchObjectException;
import java.rmi.server.UnicastRemoteObject;
import org.rpcmatrix.core.ReferenceCalculator;

/** One calculator, exported by {@link CalculatorFactoryServant#create}; release() unexports it. */
final class CalculatorServant implements RemoteCalculator {
    private final ReferenceCalculator calculator = new ReferenceCalculator();

    // synchronized: RMI may run two calls on one object on two connections at once.
    @Override
    public synchronized long add(long n) {
        return calculator.add(n);
    }

    @Override
    public synchronized void clear() {
        calculator.clear();
    }

    @Override
    public synchronized long total() {
        return calculator.total();
    }

    @Override
    public void release() throws NoSuchObjectException {
        // force=true: this very call is still in progress on the object; its answer is still sent.
        UnicastRemoteObject.unexportObject(this, true);
    }
}
