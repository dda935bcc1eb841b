package org.rpcmatrix.core;

import java.nio.file.Path;
import java.util.Set;

/**
 * A server's command line: {@code --host H --port P [--idl DIR] [--secrets DIR] [--tls]}.
 * {@code idl} and {@code secrets} are null when not given; port 0 lets the system choose.
 */
public record ServerOptions(String host, int port, Path idl, Path secrets, boolean tls) {

    /** Parses the flags after the {@code server} subcommand; unknown flags are an error. */
    public static ServerOptions parse(String[] args) {
        Flags flags = Flags.parse(args, Set.of("--host", "--port", "--idl", "--secrets"));
        return new ServerOptions(flags.required("--host"), flags.port("--port"), flags.path("--idl"),
                flags.path("--secrets"), flags.tls());
    }
}
