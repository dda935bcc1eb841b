package org.rpcmatrix.core.harness;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * SIGTERM handling. The JVM's default answer to SIGTERM runs shutdown hooks and exits with status 143;
 * the runner wants 0, so the server handles the signal itself through {@code sun.misc.Signal}, which the JDK
 * keeps available in its {@code jdk.unsupported} module for this purpose (JEP 260). It is reached by
 * reflection: javac's warning on that internal API cannot be suppressed, and the build treats warnings as
 * errors.
 */
final class TermSignal {
    private TermSignal() {
    }

    static void onTerm(Runnable action) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object term = signal.getConstructor(String.class).newInstance("TERM");
            Object onSignal = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler},
                    (proxy, method, args) -> answer(proxy, method, args, action));
            signal.getMethod("handle", signal, handler).invoke(null, term, onSignal);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot handle SIGTERM through sun.misc.Signal: " + e, e);
        }
    }

    private static Object answer(Object proxy, Method method, Object[] args, Runnable action) {
        switch (method.getName()) {
            case "handle":
                action.run();
                return null;
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            default:
                return "SIGTERM handler";
        }
    }
}
