package org.rpcmatrix.core.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.testing.TestSessions;

class OptionsTest {
    private static final String IDL = TestSessions.IDL.toString();

    @Test
    void clientFlags() {
        ClientOptions o = Flags.clientOptions(new String[] {"--protocol", "grpc-tls", "--host", "127.0.0.1", "--port", "5",
                "--idl", IDL, "--secrets", "s"});
        assertEquals(new ClientOptions(TestSessions.protocol("grpc-tls"), "127.0.0.1", 5, Path.of(IDL), Path.of("s")), o);
        assertEquals("tls", o.protocol().variant("security"));
    }

    @Test
    void theTlsNameIsTheSetUpsUnlessTheSecretsGiveOne(@TempDir Path secrets) throws Exception {
        ClientOptions o = new ClientOptions(TestSessions.protocol("grpc-tls"), "h", 1, Path.of(IDL), secrets);
        assertEquals(ClientOptions.SET_UP_SERVER_NAME, o.tlsServerName());
        Files.writeString(secrets.resolve("server-name"), "api.example.test\n");
        assertEquals("api.example.test", o.tlsServerName());
    }

    @Test
    void serverFlagsWithImplementationOptions() {
        ServerOptions o = Flags.serverOptions(new String[] {"--protocol", "thrift-compact", "--host", "::1", "--port", "0",
                "--idl", IDL, "--executor", "pool"}, Set.of("--executor"));
        assertEquals("::1", o.host());
        assertEquals(0, o.port());
        assertNull(o.secrets());
        assertEquals("compact", o.protocol().variant("encoding"));
        assertEquals(Map.of("--executor", "pool"), o.implementation());
        assertEquals("direct", Flags.serverOptions(new String[] {"--protocol", "grpc", "--host", "h", "--port", "1",
                "--idl", IDL}, Set.of("--executor")).implementation("--executor", "direct"));
    }

    @Test
    void unknownOrMissingFlagsAreErrors() {
        String[] base = {"--protocol", "rawtcp", "--idl", IDL};
        assertThrows(IllegalArgumentException.class, () -> Flags.serverOptions(with(base, "--host", "h", "--port", "1", "--x", "y"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> Flags.serverOptions(with(base, "--host", "h"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> Flags.serverOptions(with(base, "--host", "h", "--port", "70000"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> Flags.serverOptions(with(base, "--host", "h", "--port", "1", "--tls", "x"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> Flags.clientOptions(new String[] {"--protocol", "rawtcp", "--host", "h", "--port", "1"}));
        assertThrows(IllegalArgumentException.class, () -> Flags.clientOptions(new String[] {"--host", "h", "--port", "1", "--idl", IDL}));
        assertThrows(IllegalArgumentException.class, () -> Flags.clientOptions(new String[] {"--host"}));
    }

    private static String[] with(String[] base, String... more) {
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }
}
