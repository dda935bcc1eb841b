package org.rpcmatrix.core;

import java.nio.file.Path;
import java.util.Set;

/**
 * A client's command line: {@code --host H --port P --idl DIR [--secrets DIR] [--tls]}.
 * {@code secrets} is null when not given.
 */
public record ClientOptions(String host, int port, Path idl, Path secrets, boolean tls) {

    /** Parses the flags after the {@code client} subcommand; unknown flags are an error. */
    public static ClientOptions parse(String[] args) {
        Flags flags = Flags.parse(args, Set.of("--host", "--port", "--idl", "--secrets"));
        return new ClientOptions(flags.required("--host"), flags.port("--port"), Path.of(flags.required("--idl")),
                flags.path("--secrets"), flags.tls());
    }
}
