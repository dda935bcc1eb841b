package org.rpcmatrix.jsonrpc;

import org.rpcmatrix.core.harness.Launcher;

/** {@code server|client --protocol jsonrpc --host H --port N --idl DIR} (runner/PROTOCOL.md). */
public final class Main {
    static final String FAMILY = "jsonrpc";

    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, FAMILY, JsonRpcServer::start, JsonRpcClient::connect);
    }
}
