package org.rpcmatrix.core.reference;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.rpcmatrix.core.contract.Bench;

/**
 * A known slowdown, for calibrating the comparison of runs (runner/README.md, "Calibrating compare"): when the
 * runner sets {@value #VARIABLE} for a server, every contract call that server answers first busy-waits that
 * many microseconds on its own CPU. Test-only: a run made with it is marked as such in its report.
 */
public final class InjectedSpin {
    public static final String VARIABLE = "RPCMATRIX_SERVER_SPIN_US";

    private InjectedSpin() {
    }

    /** The bench a server answers with: the reference, behind the spin when the environment asks for one. */
    public static Bench served() {
        return around(new ReferenceBench(), System.getenv());
    }

    /** {@code bench} itself without {@value #VARIABLE}; else a bench that spins before delegating each call. */
    static Bench around(Bench bench, Map<String, String> environment) {
        long nanos = nanos(environment);
        if (nanos == 0) {
            return bench;
        }
        return (Bench) Proxy.newProxyInstance(Bench.class.getClassLoader(), new Class<?>[] {Bench.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Bench.class) {
                        spin(nanos);
                    }
                    try {
                        return method.invoke(bench, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    static long nanos(Map<String, String> environment) {
        String value = environment.get(VARIABLE);
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            long micros = Long.parseLong(value.trim());
            if (micros < 0 || micros > 1_000_000) {
                throw new NumberFormatException("out of 0..1000000");
            }
            return micros * 1_000;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(VARIABLE + " takes whole microseconds (0 to 1000000), not '" + value
                    + "'", e);
        }
    }

    /** Busy, not asleep: the slowdown costs CPU on the server as a slower handler would. */
    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
