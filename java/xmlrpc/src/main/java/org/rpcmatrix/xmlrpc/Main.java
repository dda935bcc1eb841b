package org.rpcmatrix.xmlrpc;

import org.rpcmatrix.core.Launcher;

/** {@code server --host H --port P} or {@code client --host H --port P --idl DIR}. */
public final class Main {
    static final String PROTOCOL = "xmlrpc";

    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, PROTOCOL, JettyXmlRpcServer::start, XmlRpcBenchClient::connect);
    }
}
