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
     * Whether one connection of this client carries concurrent calls, from threads of the caller's, each answered
     * to its caller (gRPC's HTTP/2 streams, GIOP's request ids). False, the default, for a stack that makes one
     * call at a time per connection or is not known to be safe for concurrent calls: the {@code load} command
     * then refuses more calls in flight than connections (runner/PROTOCOL.md#load).
     */
    default boolean sharesConnection() {
        return false;
    }

    /**
     * Closes the connection. Narrower than {@link AutoCloseable#close()}: a client that waits for its channel
     * to shut down keeps the thread's interrupt itself, so that try-with-resources never swallows one.
     */
    @Override
    void close() throws IOException;
}
