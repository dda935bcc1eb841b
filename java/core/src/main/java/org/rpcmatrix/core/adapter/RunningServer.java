package org.rpcmatrix.core.adapter;

import java.util.Map;

/** A started server: accepting calls on {@link #port()} until stopped. */
public interface RunningServer {
    int port();

    /** What the stack chose at run time (transport, TLS provider), printed in the ready line; empty if nothing. */
    default Map<String, String> facts() {
        return Map.of();
    }

    /** Closes the listener and the connections; returns within a few seconds. */
    void stop() throws Exception;
}
