package org.rpcmatrix.rmi;

import java.rmi.NoSuchObjectException;
import java.rmi.server.UnicastRemoteObject;
import java.util.function.Consumer;
import org.rpcmatrix.core.reference.ReferenceCalculator;

/** One calculator, exported by {@link CalculatorFactoryServant#create}; release() unexports it and lets it go. */
final class CalculatorServant implements RemoteCalculator {
    private final ReferenceCalculator calculator = new ReferenceCalculator();
    private final Consumer<CalculatorServant> onRelease;

    CalculatorServant(Consumer<CalculatorServant> onRelease) {
        this.onRelease = onRelease;
    }

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
        onRelease.accept(this);
    }
}
