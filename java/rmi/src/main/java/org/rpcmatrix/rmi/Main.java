package org.rpcmatrix.rmi;

import org.rpcmatrix.core.harness.Launcher;

/** {@code server ...} or {@code client ...} for the rmi family (rmi, rmi-tls). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, "rmi", RmiServer::start, RmiClient::connect);
    }
}
