package org.rpcmatrix.xmlrpc;

import org.rpcmatrix.core.harness.Launcher;

/**
 * {@code server|client --protocol xmlrpc --host H --port N --idl DIR} (runner/PROTOCOL.md); the client also takes
 * {@code --transport sun|commons|lite} ({@link ClientTransport}).
 */
public final class Main {
    static final String FAMILY = "xmlrpc";

    private Main() {
    }

    public static void main(String[] args) {
        ClientTransport transport;
        try {
            transport = ClientTransport.fromArgs(args);
        } catch (IllegalArgumentException e) {
            System.err.println("client: " + e.getMessage());
            System.exit(2);
            return;
        }
        // --transport is this module's own client option: taken out before the shared parser sees the rest.
        Launcher.run(ClientTransport.withoutFlag(args), FAMILY, XmlRpcServer::start,
                options -> XmlRpcClient.connect(options, transport));
    }
}
