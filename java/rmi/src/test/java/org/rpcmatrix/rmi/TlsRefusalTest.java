package org.rpcmatrix.rmi;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Operation;

/** rmi-tls: calls without a client certificate, or with one of a foreign CA, are refused; correct calls go on. */
class TlsRefusalTest {
    /** Made by runner/secrets.sh at set-up; never committed. */
    private static final Path SECRETS = Path.of("..", "..", "secrets");
    private RmiServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void defectiveClientKeysAreRefusedAndTheServerStillServes() throws Exception {
        assumeTrue(Files.exists(SECRETS.resolve("server.p12")), "no key material: run runner/setup.sh");
        server = RmiServer.start("127.0.0.1", 0, TlsContexts.server(SECRETS));
        RmiClient.registerTlsProfiles(SECRETS);
        RmiClient client = RmiClient.connect("127.0.0.1", server.port(), true);
        client.ping();
        for (String attack : new String[] {"no-client-certificate", "untrusted-client-certificate"}) {
            String refusal = client.attack(attack, Operation.PING, new Object[0]);
            assertNotNull(refusal, attack + " was answered");
            assertTrue(refusal.contains("SSL") || refusal.contains("Socket") || refusal.contains("EOF"), refusal);
            client.pingAfterAttack();
        }
        client.ping();
    }
}
