package org.rpcmatrix.core;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The command-line flags of runner/PROTOCOL.md: {@code --name value} pairs and the switch {@code --tls}. */
final class Flags {
    private final Map<String, String> values = new HashMap<>();
    private final boolean tls;

    private Flags(String[] args, Set<String> allowed) {
        boolean tlsSeen = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--tls")) {
                tlsSeen = true;
                continue;
            }
            if (!allowed.contains(flag)) {
                throw new IllegalArgumentException("unknown flag " + flag);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            values.put(flag, args[++i]);
        }
        this.tls = tlsSeen;
    }

    static Flags parse(String[] args, Set<String> allowed) {
        return new Flags(args, allowed);
    }

    boolean tls() {
        return tls;
    }

    String required(String flag) {
        String value = values.get(flag);
        if (value == null) {
            throw new IllegalArgumentException("missing " + flag);
        }
        return value;
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
}
