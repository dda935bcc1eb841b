package org.rpcmatrix.httpinvoker;

import org.rpcmatrix.core.harness.Launcher;

/** {@code server|client --protocol httpinvoker --host H --port N --idl DIR} (runner/PROTOCOL.md). */
public final class Main {
    static final String FAMILY = "httpinvoker";

    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, FAMILY, HttpInvokerServer::start, HttpInvokerClient::connect);
    }
}
