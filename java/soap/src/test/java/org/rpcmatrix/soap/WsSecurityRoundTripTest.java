package org.rpcmatrix.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Operation;

/** The WS-Security variants in process, with key material made by the set-up's script. */
class WsSecurityRoundTripTest {
    @TempDir
    static Path dir;
    private static Path secrets;

    @BeforeAll
    static void keys() throws Exception {
        secrets = SoapFixtures.secrets(dir);
    }

    @Test
    void signedAndEncryptedCallsRoundTripAndAttacksAreRefused() throws Exception {
        SoapServer server = SoapFixtures.server("wss-sign-encrypt", secrets);
        try (SoapClient client = SoapClient.connect(SoapFixtures.client("wss-sign-encrypt", server.port(), secrets))) {
            assertEquals("signed", client.echoString("signed"));
            BenchError error = assertThrows(BenchError.class, () -> client.fail(7, "seven"));
            assertEquals(7, error.code());
            for (String attack : new String[] {"tampered-body", "replayed-message", "unknown-certificate",
                    "missing-security-header", "expired-timestamp"}) {
                String refusal = client.attack(attack, attack.equals("tampered-body") ? Operation.ECHO_STRING : Operation.PING,
                        attack.equals("tampered-body") ? new Object[] {"signed"} : new Object[0]);
                assertNotNull(refusal, attack);
                assertTrue(refusal.startsWith("SOAP Fault "), refusal);
                client.pingAfterAttack();
            }
            client.ping(); // the first connection still serves
        } finally {
            server.stop();
        }
    }

    @Test
    void usernameTokenWithTheRightPasswordPassesAndAWrongOneIsRefused() throws Exception {
        SoapServer server = SoapFixtures.server("wss-username", secrets);
        try (SoapClient client = SoapClient.connect(SoapFixtures.client("wss-username", server.port(), secrets))) {
            assertEquals(5L, client.echoInt64(5L));
            assertNotNull(client.attack("wrong-password", Operation.PING, new Object[0]));
            assertNotNull(client.attack("replayed-message", Operation.PING, new Object[0]));
            client.pingAfterAttack();
        } finally {
            server.stop();
        }
    }

    @Test
    void anAttackTheServerDoesNotRefuseIsReportedAsAnswered() throws Exception {
        // A plain SOAP server has no security header to miss: the "attack" is answered normally.
        SoapServer plain = SoapFixtures.server("soap11", null);
        try {
            ProxyBuilder unsecured = new ProxyBuilder(SoapFixtures.client("wss-sign", plain.port(), secrets),
                    WsSecurity.Mode.SIGNATURE, KeyMaterial.load(secrets));
            assertNull(new Attacks(unsecured, KeyMaterial.load(secrets)).make("missing-security-header",
                    Operation.PING, new Object[0]));
        } finally {
            plain.stop();
        }
    }
}
