package org.rpcmatrix.core.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/** The command-line flags of runner/PROTOCOL.md: {@code --name value} pairs, each allowed name once. */
public final class Flags {
    static final Set<String> COMMON = Set.of("--protocol", "--host", "--port", "--idl", "--secrets");

    private final Map<String, String> values = new HashMap<>();

    private Flags(String[] args, Set<String> allowed) {
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (!allowed.contains(flag)) {
                throw new IllegalArgumentException("unknown flag " + flag);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            values.put(flag, args[++i]);
        }
    }

    static Flags parse(String[] args, Set<String> allowed) {
        return new Flags(args, allowed);
    }

    /** A client's flags (after the {@code client} subcommand); unknown flags are an error. */
    public static ClientOptions clientOptions(String[] args) {
        Flags flags = parse(args, COMMON);
        return new ClientOptions(flags.protocol(), flags.required("--host"), flags.port("--port"),
                flags.path("--idl"), flags.path("--secrets"));
    }

    /** A server's flags (after the {@code server} subcommand) and the module's own; unknown flags are an error. */
    public static ServerOptions serverOptions(String[] args, Set<String> implementationFlags) {
        Set<String> allowed = new HashSet<>(COMMON);
        allowed.addAll(implementationFlags);
        Flags flags = parse(args, allowed);
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

    String required(String flag) {
        String value = values.get(flag);
        if (value == null) {
            throw new IllegalArgumentException("missing " + flag);
        }
        return value;
    }

    /** The value of {@code flag}, or null when it was not given. */
    String optional(String flag) {
        return values.get(flag);
    }

    int port(String flag) {
        String text = required(flag);
        try {
            int port = Integer.parseInt(text);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException(flag + " must be 0 to 65535, got " + text);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number, got " + text, e);
        }
    }

    Path path(String flag) {
        String value = values.get(flag);
        return value == null ? null : Path.of(value);
    }

    /** {@code --protocol} looked up in the registry of {@code --idl}: an unregistered name is refused. */
    Protocol protocol() {
        String name = required("--protocol");
        Path idl = Path.of(required("--idl"));
        try {
            return ProtocolRegistry.load(idl).require(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + idl.resolve(ProtocolRegistry.FILE) + ": " + e.getMessage(), e);
        }
    }
}
