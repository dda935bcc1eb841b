package org.rpcmatrix.grpc;

import java.util.Arrays;
import org.rpcmatrix.core.ClientMain;
import org.rpcmatrix.core.ServerMain;

/**
 * Entry point: {@code server --host H --port P [--tls --secrets DIR]} or
 * {@code client --host H --port P --idl DIR [--tls --secrets DIR]} (runner/PROTOCOL.md).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        String role = args.length > 0 ? args[0] : "";
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (role) {
            case "server" -> ServerMain.run(rest, GrpcServer::start);
            // ClientMain appends "-tls" to the protocol name itself when --tls is given.
            case "client" -> ClientMain.run(rest, "grpc", GrpcClient::connect);
            default -> {
                System.err.println("usage: Main server|client --host H --port P [--idl DIR] [--tls --secrets DIR]");
                System.exit(2);
            }
        }
    }
}
