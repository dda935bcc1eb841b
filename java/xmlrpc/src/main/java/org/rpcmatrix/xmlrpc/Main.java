package org.rpcmatrix.xmlrpc;

import org.rpcmatrix.core.Launcher;

/** {@code server|client --protocol xmlrpc --host H --port N --idl DIR} (runner/PROTOCOL.md). */
public final class Main {
    static final String FAMILY = "xmlrpc";

    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, FAMILY, JettyXmlRpcServer::start, XmlRpcBenchClient::connect);
    }
}
