package org.rpcmatrix.xmlrpc;

import java.util.Arrays;
import org.rpcmatrix.core.ClientMain;
import org.rpcmatrix.core.ServerMain;

/** {@code server --host H --port P} or {@code client --host H --port P --idl DIR}. */
public final class Main {
    static final String PROTOCOL = "xmlrpc";

    private Main() {
    }

    public static void main(String[] args) {
        String[] flags = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        String command = args.length == 0 ? "" : args[0];
        switch (command) {
            case "server":
                ServerMain.run(flags, JettyXmlRpcServer::start);
                break;
            case "client":
                ClientMain.run(flags, PROTOCOL, XmlRpcBenchClient::connect);
                break;
            default:
                System.err.println("usage: (server --host H --port P) | (client --host H --port P --idl DIR)");
                System.exit(2);
        }
    }
}
