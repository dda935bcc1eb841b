package org.rpcmatrix.thrift;

import org.rpcmatrix.core.harness.Launcher;

/**
 * {@code server|client --protocol thrift-binary|thrift-compact --host H --port N --idl DIR}: the Thrift
 * encoding is the registry's variant of the protocol, on the framed transport.
 */
public final class Main {
    static final String FAMILY = "thrift";

    private Main() {
    }

    public static void main(String[] args) {
        Launcher.run(args, FAMILY, options -> ThriftServer.start(options, Wire.of(options.protocol())),
                options -> ThriftClient.connect(options, Wire.of(options.protocol())));
    }
}
