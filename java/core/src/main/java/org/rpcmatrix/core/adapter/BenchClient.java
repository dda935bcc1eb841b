package org.rpcmatrix.core.adapter;

import java.io.IOException;
import java.util.Map;
import org.rpcmatrix.core.contract.Bench;

/** A protocol's client: the contract's operations over one persistent connection, closed at the end. */
public interface BenchClient extends Bench, AutoCloseable {
    /** What the stack chose at run time (transport, TLS provider), answered by {@code connect}; empty if nothing. */
    default Map<String, String> facts() {
        return Map.of();
    }

    /**
     * Closes the connection. Narrower than {@link AutoCloseable#close()}: a client that waits for its channel
     * to shut down keeps the thread's interrupt itself, so that try-with-resources never swallows one.
     */
    @Override
    void close() throws IOException;
}
