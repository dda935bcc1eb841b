package org.rpcmatrix.core.adapter;

import org.rpcmatrix.core.harness.ClientMain;

/** Creates a protocol's client (stub, channel or proxy); {@link ClientMain} times this and a first ping. */
public interface ClientFactory {
    BenchClient connect(ClientOptions options) throws Exception;
}
