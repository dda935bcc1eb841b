package org.rpcmatrix.grpc;

import org.rpcmatrix.core.Launcher;

/**
 * Entry point: {@code server --host H --port P [--tls --secrets DIR]} or
 * {@code client --host H --port P --idl DIR [--tls --secrets DIR]} (runner/PROTOCOL.md).
 * The client reports itself as "grpc-tls" when given --tls.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Launcher.run(args, "grpc", GrpcServer::start, GrpcClient::connect);
    }
}
