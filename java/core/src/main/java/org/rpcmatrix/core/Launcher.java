package org.rpcmatrix.core;

import java.util.Arrays;

/** The command line every protocol's jar shares: {@code server ...} or {@code client ...} (runner/PROTOCOL.md). */
public final class Launcher {
    private Launcher() {
    }

    /** Runs the role named by the first argument with the rest as its flags; anything else is a usage error. */
    public static void run(String[] args, String protocol, ServerFactory server, ClientFactory client) {
        String role = args.length == 0 ? "" : args[0];
        String[] flags = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (role) {
            case "server" -> ServerMain.run(flags, server);
            case "client" -> ClientMain.run(flags, protocol, client);
            default -> {
                System.err.println("usage: server --host H --port P [flags] | client --host H --port P --idl DIR [flags]");
                System.exit(2);
            }
        }
    }
}
