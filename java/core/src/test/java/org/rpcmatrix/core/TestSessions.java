package org.rpcmatrix.core;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Sessions and protocols from the repository's idl folder, for tests. */
final class TestSessions {
    private TestSessions() {
    }

    static Protocol protocol(String name) {
        try {
            return ProtocolRegistry.load(OperationTest.IDL).require(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ClientOptions options(String protocol) {
        return new ClientOptions(protocol(protocol), "127.0.0.1", 9, OperationTest.IDL, null);
    }

    /** A session on {@code protocol} whose {@code connect} gives {@code client}. */
    static ClientSession session(String protocol, BenchClient client) {
        try {
            return new ClientSession(ContractFiles.load(OperationTest.IDL), options(protocol), o -> client);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
