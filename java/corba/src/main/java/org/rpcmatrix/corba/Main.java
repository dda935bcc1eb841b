package org.rpcmatrix.corba;

import org.rpcmatrix.core.harness.Launcher;

/** {@code server ...} or {@code client ...} for the corba family (corba-ior, corba-naming). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, "corba", CorbaServer::start, CorbaClient::connect);
    }
}
