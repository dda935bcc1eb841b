package org.rpcmatrix.core.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.AttackClient;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.testing.FakeClient;
import org.rpcmatrix.core.testing.TestSessions;

/** How VectorRunner judges an attack vector (CONTRACT.md#vectors, attacks), with a scripted fake client. */
class AttackDispatchTest {
    /** A FakeClient whose attacks are refused or answered as the test says. */
    static final class FakeAttacker extends FakeClient implements AttackClient {
        String refusal;
        Exception pingFailure;
        Exception attackFailure;
        String seenAttack;
        Object[] seenArgs;

        @Override
        public String attack(String attack, Operation op, Object[] args) throws Exception {
            seenAttack = attack;
            seenArgs = args;
            if (attackFailure != null) {
                throw attackFailure;
            }
            return refusal;
        }

        @Override
        public void pingAfterAttack() throws Exception {
            if (pingFailure != null) {
                throw pingFailure;
            }
        }
    }

    private static Vector tampered() throws Exception {
        return new Vector("refuse_tampered_body", Operation.ECHO_STRING, Json.MAPPER.readTree("[\"signed\"]"), false,
                null, List.of("message-signature"), null, null, "tampered-body");
    }

    private static VectorResult run(Bench client) throws Exception {
        return VectorRunner.runOne(client, tampered(), TestSessions.protocol("wss-sign"));
    }

    @Test
    void aRefusalFollowedByAServedPingPasses() throws Exception {
        FakeAttacker client = new FakeAttacker();
        client.refusal = "soap:Client: The signature or decryption was invalid";
        VectorResult result = run(client);
        assertEquals("pass", result.status());
        assertEquals(client.refusal, result.reason());
        assertEquals("tampered-body", client.seenAttack);
        assertEquals("signed", client.seenArgs[0]);
    }

    @Test
    void anAnsweredAttackFails() throws Exception {
        VectorResult result = run(new FakeAttacker());
        assertEquals("fail", result.status());
        assertEquals("the server answered the defective call", result.reason());
    }

    @Test
    void aServerThatStopsServingFails() throws Exception {
        FakeAttacker client = new FakeAttacker();
        client.refusal = "Fault";
        client.pingFailure = new java.io.IOException("connection refused");
        VectorResult result = run(client);
        assertEquals("fail", result.status());
        assertEquals("refused (Fault), but then stopped serving: IOException: connection refused", result.reason());
    }

    @Test
    void aClientWithoutAttacksIsAnError() throws Exception {
        VectorResult result = run(new FakeClient());
        assertEquals("error", result.status());
        assertEquals("the client implements no attacks", result.reason());
    }

    @Test
    void aBrokenAttackIsAnError() throws Exception {
        FakeAttacker client = new FakeAttacker();
        client.attackFailure = new IllegalStateException("no key");
        VectorResult result = run(client);
        assertEquals("error", result.status());
        assertTrue(result.reason().contains("no key"));
    }

    @Test
    void anAttackTheProtocolCannotMakeIsUnsupported() throws Exception {
        VectorResult result = VectorRunner.runOne(new FakeAttacker(), tampered(), TestSessions.protocol("xmlrpc"));
        assertEquals("unsupported", result.status());
    }
}
