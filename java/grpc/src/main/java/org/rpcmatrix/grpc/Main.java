package org.rpcmatrix.grpc;

import org.rpcmatrix.core.harness.Launcher;

/**
 * Entry point: {@code server --protocol grpc|grpc-tls --host H --port N --idl DIR [--secrets DIR]
 * [--executor direct|pool]} or {@code client --protocol grpc|grpc-tls --host H --port N --idl DIR
 * [--secrets DIR]} (runner/PROTOCOL.md). TLS or not is the registry's variant of the protocol.
 */
public final class Main {
    static final String FAMILY = "grpc";

    private Main() {}

    public static void main(String[] args) {
        Launcher.run(args, FAMILY, GrpcServer.FLAGS, GrpcServer::start, GrpcClient::connect);
    }
}
