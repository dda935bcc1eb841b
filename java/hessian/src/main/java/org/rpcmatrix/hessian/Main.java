package org.rpcmatrix.hessian;

import org.rpcmatrix.core.harness.Launcher;

/**
 * {@code server|client --protocol hessian1|hessian2|burlap --host H --port N --idl DIR}. One jar serves two
 * registry families, Hessian and Burlap (Caucho ships both in one library); the protocol named picks the family.
 */
public final class Main {
    static final String HESSIAN = "hessian";
    static final String BURLAP = "burlap";

    private Main() {
    }

    public static void main(String[] args) {
        String family = BURLAP.equals(protocolArgument(args)) ? BURLAP : HESSIAN;
        Launcher.run(args, family, HessianServer::start, HessianClient::connect);
    }

    private static String protocolArgument(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--protocol")) {
                return args[i + 1];
            }
        }
        return null;
    }
}
