package org.rpcmatrix.core.harness;

import java.util.Arrays;
import java.util.Set;
import org.rpcmatrix.core.adapter.ClientFactory;
import org.rpcmatrix.core.adapter.ServerFactory;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/**
 * The command line every protocol's jar shares (runner/PROTOCOL.md): {@code server --protocol P ...} or
 * {@code client --protocol P ...}. A jar serves one protocol family; the variant comes from the registry.
 */
public final class Launcher {
    private Launcher() {
    }

    /** Runs the role named by the first argument with the rest as its flags; anything else is a usage error. */
    public static void run(String[] args, String family, ServerFactory server, ClientFactory client) {
        run(args, family, Set.of(), server, client);
    }

    /**
     * As {@link #run(String[], String, ServerFactory, ClientFactory)}, with implementation options the server
     * accepts besides the common flags (each {@code --name value}).
     */
    public static void run(String[] args, String family, Set<String> serverImplementationFlags, ServerFactory server,
            ClientFactory client) {
        String role = args.length == 0 ? "" : args[0];
        String[] flags = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (role) {
            case "server" -> ServerMain.run(flags, family, serverImplementationFlags, server);
            case "client" -> ClientMain.run(flags, family, client);
            default -> {
                System.err.println("usage: server --protocol P --host H --port N --idl DIR [--secrets DIR]"
                        + " | client --protocol P --host H --port N --idl DIR [--secrets DIR]");
                System.exit(2);
            }
        }
    }

    /** Refuses a registered protocol of another family: this jar cannot speak it. */
    static void checkFamily(Protocol protocol, String family) {
        if (!protocol.family().equals(family)) {
            throw new IllegalArgumentException("protocol '" + protocol.name() + "' is of family "
                    + protocol.family() + "; this program serves the " + family + " family");
        }
    }

    /** The line to print for a bad command line: the registry's refusal as it is, anything else prefixed. */
    static String startError(String role, Exception e) {
        if (e instanceof ProtocolRegistry.UnregisteredProtocolException) {
            return e.getMessage();
        }
        return role + ": " + e.getMessage();
    }
}
