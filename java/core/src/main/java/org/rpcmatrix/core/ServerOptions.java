package org.rpcmatrix.core;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A server's command line: {@code --protocol P --host H --port N --idl DIR [--secrets DIR]} plus the
 * implementation options a module declares (such as {@code --executor pool}). {@code secrets} is null when not
 * given; port 0 lets the system choose; {@code protocol} comes from the registry in {@code idl}.
 */
public record ServerOptions(Protocol protocol, String host, int port, Path idl, Path secrets,
        Map<String, String> implementation) {

    static final Set<String> COMMON = Set.of("--protocol", "--host", "--port", "--idl", "--secrets");

    /** Parses the flags after the {@code server} subcommand; unknown flags are an error. */
    public static ServerOptions parse(String[] args, Set<String> implementationFlags) {
        Set<String> allowed = new HashSet<>(COMMON);
        allowed.addAll(implementationFlags);
        Flags flags = Flags.parse(args, allowed);
        Map<String, String> implementation = new HashMap<>();
        for (String flag : implementationFlags) {
            String value = flags.optional(flag);
            if (value != null) {
                implementation.put(flag, value);
            }
        }
        return new ServerOptions(flags.protocol(), flags.required("--host"), flags.port("--port"),
                flags.path("--idl"), flags.path("--secrets"), Map.copyOf(implementation));
    }

    /** The implementation option {@code flag}'s value, or {@code fallback} when it was not given. */
    public String implementation(String flag, String fallback) {
        return implementation.getOrDefault(flag, fallback);
    }
}
