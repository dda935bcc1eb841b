package org.rpcmatrix.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void clientFlags() {
        ClientOptions o = ClientOptions.parse(new String[] {"--host", "127.0.0.1", "--port", "5", "--idl", "idl", "--tls",
                "--secrets", "s"});
        assertEquals(new ClientOptions("127.0.0.1", 5, Path.of("idl"), Path.of("s"), true), o);
    }

    @Test
    void serverFlags() {
        ServerOptions o = ServerOptions.parse(new String[] {"--host", "::1", "--port", "0"});
        assertEquals("::1", o.host());
        assertEquals(0, o.port());
        assertNull(o.secrets());
        assertTrue(!o.tls());
    }

    @Test
    void unknownOrMissingFlagsAreErrors() {
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(new String[] {"--host", "h", "--port", "1", "--x", "y"}));
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(new String[] {"--host", "h"}));
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(new String[] {"--host", "h", "--port", "70000"}));
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.parse(new String[] {"--host", "h", "--port", "1"}));
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.parse(new String[] {"--host"}));
    }
}
