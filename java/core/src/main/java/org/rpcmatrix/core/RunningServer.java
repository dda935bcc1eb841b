package org.rpcmatrix.core;

/** A started server: accepting calls on {@link #port()} until stopped. */
public interface RunningServer {
    int port();

    /** Closes the listener and the connections; returns within a few seconds. */
    void stop() throws Exception;
}
