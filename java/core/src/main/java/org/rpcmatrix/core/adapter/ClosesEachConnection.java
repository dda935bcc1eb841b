package org.rpcmatrix.core.adapter;

/**
 * A client whose making is what its users do once (a JAX-WS proxy built from a WSDL), which takes
 * {@code --connection per-call} (runner/PROTOCOL.md: connect) by closing its connection after each answer instead:
 * the client kept, each call on a new connection. The others are made anew for each call.
 */
public interface ClosesEachConnection {
    /** From now on, each call's connection is closed after its answer, so that the next call connects anew. */
    void closeEachConnection();
}
