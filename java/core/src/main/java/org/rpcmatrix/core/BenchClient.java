package org.rpcmatrix.core;

import java.util.Map;

/** A protocol's client: the contract's operations over one persistent connection, closed at the end. */
public interface BenchClient extends Bench, AutoCloseable {
    /** What the stack chose at run time (transport, TLS provider), answered by {@code connect}; empty if nothing. */
    default Map<String, String> facts() {
        return Map.of();
    }
}
