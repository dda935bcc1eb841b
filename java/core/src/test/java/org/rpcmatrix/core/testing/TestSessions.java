package org.rpcmatrix.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.harness.ClientSession;

/** Sessions and protocols from the repository's idl folder, for tests. */
public final class TestSessions {
    /** The repository's idl folder, from a module's folder. */
    public static final Path IDL = Path.of("..", "..", "idl");

    private TestSessions() {
    }

    public static Protocol protocol(String name) {
        try {
            return ProtocolRegistry.load(IDL).require(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ClientOptions options(String protocol) {
        return new ClientOptions(protocol(protocol), "127.0.0.1", 9, IDL, null);
    }

    /** A session on {@code protocol} whose {@code connect} gives {@code client}. */
    public static ClientSession session(String protocol, BenchClient client) {
        try {
            return new ClientSession(ContractFiles.load(IDL), options(protocol), o -> client);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
