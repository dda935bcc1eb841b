package org.rpcmatrix.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.harness.ClientSession;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.httphost.HttpHost;

/** This module's client against its server in process, and the wire as idl/CONTRACT.md writes it. */
class JsonRpcRoundTripTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private static HttpHost host;

    @BeforeAll
    static void start() throws Exception {
        host = HttpHost.start("127.0.0.1", 0, "test",
                Map.of(JsonRpcServer.PATH, JsonRpcServer.servlet(JsonRpcServer.service(new ReferenceBench()))));
    }

    @AfterAll
    static void stop() throws Exception {
        host.stop();
    }

    @Test
    void everyVectorPassesOrIsUnsupported() throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require(Main.FAMILY);
        ClientSession session = new ClientSession(ContractFiles.load(IDL),
                new ClientOptions(protocol, "127.0.0.1", host.port(), IDL, null), JsonRpcClient::connect);
        assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        JsonNode answer = Json.MAPPER.readTree(session.handle("{\"cmd\": \"vectors\", \"protocol\": \"jsonrpc\"}"));
        for (JsonNode result : answer.get("results")) {
            String status = result.get("status").textValue();
            if (!status.equals("pass")) {
                assertEquals("unsupported", status, result.toString());
                assertTrue(protocol.lacks().containsValue(result.get("reason").textValue()), result.toString());
            }
        }
        session.close();
    }

    @Test
    void benchErrorIsTheErrorObjectWithTheContractCode() throws Exception {
        try (JsonRpcClient client = JsonRpcClient.create("127.0.0.1", host.port())) {
            BenchError error = assertThrows(BenchError.class, () -> client.fail(-1, "<&> Grüße 𝄞"));
            assertEquals(-1, error.code());
            assertEquals("<&> Grüße 𝄞", error.getMessage());
            assertEquals(Long.MAX_VALUE, client.echoInt64(Long.MAX_VALUE));
        }
    }

    @Test
    void theWireIsPlainJsonRpc() throws Exception {
        JsonNode ok = post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"echoInt64\", \"params\": [9007199254740993]}");
        assertEquals(9007199254740993L, ok.get("result").longValue());
        JsonNode voidResult = post("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\", \"params\": []}");
        assertTrue(voidResult.has("result") && voidResult.get("result").isNull(), voidResult.toString());
        JsonNode bytes = post("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"echoBytes\", \"params\": [\"AP8=\"]}");
        assertEquals("AP8=", bytes.get("result").textValue());
        JsonNode fail = post("{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"fail\", \"params\": [42, \"boom\"]}");
        assertEquals(42, fail.get("error").get("code").intValue());
        assertEquals("boom", fail.get("error").get("message").textValue());
        JsonNode range = post("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"echoInt16\", \"params\": [40000]}");
        assertEquals(-32602, range.get("error").get("code").intValue());
    }

    /** Posts a request and returns the answer, which must come with HTTP 200 (errors included). */
    private static JsonNode post(String body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(HttpHost.url("127.0.0.1", host.port(), JsonRpcServer.PATH)))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return Json.MAPPER.readTree(response.body());
    }
}
