package org.rpcmatrix.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionsTest {
    private static final String IDL = OperationTest.IDL.toString();

    @Test
    void clientFlags() {
        ClientOptions o = ClientOptions.parse(new String[] {"--protocol", "grpc-tls", "--host", "127.0.0.1", "--port", "5",
                "--idl", IDL, "--secrets", "s"});
        assertEquals(new ClientOptions(TestSessions.protocol("grpc-tls"), "127.0.0.1", 5, Path.of(IDL), Path.of("s")), o);
        assertEquals("tls", o.protocol().variant("security"));
    }

    @Test
    void serverFlagsWithImplementationOptions() {
        ServerOptions o = ServerOptions.parse(new String[] {"--protocol", "thrift-compact", "--host", "::1", "--port", "0",
                "--idl", IDL, "--executor", "pool"}, Set.of("--executor"));
        assertEquals("::1", o.host());
        assertEquals(0, o.port());
        assertNull(o.secrets());
        assertEquals("compact", o.protocol().variant("encoding"));
        assertEquals(Map.of("--executor", "pool"), o.implementation());
        assertEquals("direct", ServerOptions.parse(new String[] {"--protocol", "grpc", "--host", "h", "--port", "1",
                "--idl", IDL}, Set.of("--executor")).implementation("--executor", "direct"));
    }

    @Test
    void unknownOrMissingFlagsAreErrors() {
        String[] base = {"--protocol", "rawtcp", "--idl", IDL};
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(with(base, "--host", "h", "--port", "1", "--x", "y"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(with(base, "--host", "h"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(with(base, "--host", "h", "--port", "70000"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(with(base, "--host", "h", "--port", "1", "--tls", "x"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.parse(new String[] {"--protocol", "rawtcp", "--host", "h", "--port", "1"}));
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.parse(new String[] {"--host", "h", "--port", "1", "--idl", IDL}));
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.parse(new String[] {"--host"}));
    }

    private static String[] with(String[] base, String... more) {
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }
}
