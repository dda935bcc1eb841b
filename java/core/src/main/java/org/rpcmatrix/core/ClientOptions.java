package org.rpcmatrix.core;

import java.nio.file.Path;

/**
 * A client's command line: {@code --protocol P --host H --port N --idl DIR [--secrets DIR]}.
 * {@code secrets} is null when not given; {@code protocol} comes from the registry in {@code idl}.
 */
public record ClientOptions(Protocol protocol, String host, int port, Path idl, Path secrets) {

    /** Parses the flags after the {@code client} subcommand; unknown flags are an error. */
    public static ClientOptions parse(String[] args) {
        Flags flags = Flags.parse(args, ServerOptions.COMMON);
        return new ClientOptions(flags.protocol(), flags.required("--host"), flags.port("--port"),
                flags.path("--idl"), flags.path("--secrets"));
    }
}
