package org.rpcmatrix.core;

/**
 * SIGTERM handling. The JVM's default answer to SIGTERM runs shutdown hooks and exits with status 143;
 * the runner wants 0, so the server handles the signal itself through {@code sun.misc.Signal}, which the JDK
 * keeps available in its {@code jdk.unsupported} module for this purpose (JEP 260); javac warns about it.
 */
@SuppressWarnings("restriction")
final class TermSignal {
    private TermSignal() {
    }

    static void onTerm(Runnable action) {
        sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> action.run());
    }
}
