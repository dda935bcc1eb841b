package org.rpcmatrix.core.adapter;

/** Starts a protocol's server; returns once it accepts calls. */
public interface ServerFactory {
    RunningServer start(ServerOptions options) throws Exception;
}
