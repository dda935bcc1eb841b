package org.rpcmatrix.soap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/** Servers and clients of this module in process, on 127.0.0.1 and a port the system picks. */
final class SoapFixtures {
    static final Path IDL = Path.of("..", "..", "idl");

    private SoapFixtures() {
    }

    static Protocol protocol(String name) throws IOException {
        return ProtocolRegistry.load(IDL).require(name);
    }

    static SoapServer server(String protocol, Path secrets) throws Exception {
        return SoapServer.start(new ServerOptions(protocol(protocol), "127.0.0.1", 0, IDL, secrets, Map.of()));
    }

    static ClientOptions client(String protocol, int port, Path secrets) throws IOException {
        return new ClientOptions(protocol(protocol), "127.0.0.1", port, IDL, secrets);
    }

    /** A fresh set of keys and certificates made by the set-up's own script (runner/secrets.sh). */
    static Path secrets(Path dir) throws Exception {
        Path target = dir.resolve("secrets");
        Process process = new ProcessBuilder("bash", Path.of("..", "..", "runner", "secrets.sh").toString(),
                target.toString()).inheritIO().start();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("runner/secrets.sh failed");
        }
        return target;
    }
}
