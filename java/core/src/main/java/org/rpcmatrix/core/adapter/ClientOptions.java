package org.rpcmatrix.core.adapter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rpcmatrix.core.contract.Protocol;

/**
 * A client's command line: {@code --protocol P --host H --port N --idl DIR [--secrets DIR]} (parsed by the
 * harness's {@code Flags}). {@code secrets} is null when not given; {@code protocol} comes from the registry in
 * {@code idl}.
 */
public record ClientOptions(Protocol protocol, String host, int port, Path idl, Path secrets) {
    /** The name every server certificate of the set-up carries (runner/secrets.sh). */
    public static final String SET_UP_SERVER_NAME = "server.rpcmatrix.test";

    /**
     * The name a TLS client verifies on the server's certificate, rather than the address it dials (a server may
     * sit at an address no certificate knows): {@code server-name} in the secrets folder when there is one (a
     * server elsewhere, runner/README.md#certification), else {@link #SET_UP_SERVER_NAME}.
     */
    public String tlsServerName() {
        Path file = secrets == null ? null : secrets.resolve("server-name");
        if (file == null || !Files.exists(file)) {
            return SET_UP_SERVER_NAME;
        }
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
