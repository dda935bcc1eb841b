package org.rpcmatrix.rawtcp;

import org.rpcmatrix.core.harness.Launcher;

/** {@code server|client --protocol rawtcp --host H --port N --idl DIR} (runner/PROTOCOL.md). */
public final class Main {
    static final String FAMILY = "rawtcp";

    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, FAMILY, RawTcpServer::start, RawTcpClient::connect);
    }
}
