package org.rpcmatrix.core.reference;

import java.util.NoSuchElementException;
import org.rpcmatrix.core.adapter.CalculatorClient;

/** Calculators in this process, no transport: what the handler figure of a session workload times. */
public final class LocalCalculators implements CalculatorClient {
    /** A calculator and whether release() ended it, as a server's object table would know. */
    private static final class Local {
        final ReferenceCalculator calculator = new ReferenceCalculator();
        boolean released;
    }

    private static Local live(Object calculator) {
        Local local = (Local) calculator;
        if (local.released) {
            throw new NoSuchElementException("calculator released");
        }
        return local;
    }

    @Override
    public Object create() {
        return new Local();
    }

    @Override
    public long add(Object calculator, long n) {
        return live(calculator).calculator.add(n);
    }

    @Override
    public void clear(Object calculator) {
        live(calculator).calculator.clear();
    }

    @Override
    public long total(Object calculator) {
        return live(calculator).calculator.total();
    }

    @Override
    public void release(Object calculator) {
        live(calculator).released = true;
    }

    @Override
    public boolean isNoSuchObject(Exception e) {
        return e instanceof NoSuchElementException;
    }
}
