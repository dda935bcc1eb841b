package org.rpcmatrix.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.httphost.HttpHost;

/**
 * The Java JSON-RPC server against the examples of the JSON-RPC 2.0 specification (section 7), as this contract's
 * methods (the same table as python/tests/test_jsonrpc.py's SPECIFICATION_CASES), a few cases of the
 * specification's rules the examples leave out, and hostile sizes: each answered with the error the
 * specification names, over HTTP, and the server serving on.
 */
class JsonRpcSpecificationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
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

    /** An error answer with id null, its error reduced to its code (as {@link #codes} reduces answers). */
    private static String error(int code) {
        return "{\"jsonrpc\": \"2.0\", \"error\": " + code + ", \"id\": null}";
    }

    /** Request text, expected HTTP status, expected answer (errors reduced to their code; null: no body). */
    static Stream<Arguments> specificationCases() {
        return Stream.of(
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [23], \"id\": 1}", 200,
                        "{\"jsonrpc\": \"2.0\", \"result\": 23, \"id\": 1}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}", 204, null),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"foobar\", \"id\": \"1\"}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32601, \"id\": \"1\"}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]", 200, error(-32700)),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": 1, \"params\": \"bar\"}", 200, error(-32600)),
                Arguments.of("[{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": \"1\"}, {\"jsonrpc\": \"2.0\", \"method\"]",
                        200, error(-32700)),
                Arguments.of("[]", 200, error(-32600)),
                Arguments.of("[1]", 200, "[" + error(-32600) + "]"),
                Arguments.of("[1,2,3]", 200, "[" + error(-32600) + ", " + error(-32600) + ", " + error(-32600) + "]"),
                Arguments.of("[{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [1], \"id\": \"1\"},"
                        + " {\"jsonrpc\": \"2.0\", \"method\": \"ping\"}, {\"foo\": \"boo\"},"
                        + " {\"jsonrpc\": \"2.0\", \"method\": \"foo.get\", \"params\": {\"name\": \"myself\"}, \"id\": \"5\"}]", 200,
                        "[{\"jsonrpc\": \"2.0\", \"result\": 1, \"id\": \"1\"}, " + error(-32600) + ","
                        + " {\"jsonrpc\": \"2.0\", \"error\": -32601, \"id\": \"5\"}]"),
                Arguments.of("[{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}, {\"jsonrpc\": \"2.0\", \"method\": \"ping\"}]", 204, null),
                Arguments.of("{\"jsonrpc\": \"1.0\", \"method\": \"ping\", \"id\": 1}", 200, error(-32600)),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [\"x\"], \"id\": 2}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 2}"));
    }

    /** The specification's rules that its examples leave out, and the contract's carriage (CONTRACT.md). */
    static Stream<Arguments> ruleCases() {
        return Stream.of(
                // "params" must be a structured value; "id" a string, a number or null; "jsonrpc" exactly "2.0".
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": 7, \"id\": 3}", 200, error(-32600)),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"params\": null, \"id\": 3}", 200, error(-32600)),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": true}", 200, error(-32600)),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": {\"a\": 1}}", 200, error(-32600)),
                Arguments.of("{\"jsonrpc\": 2.0, \"method\": \"ping\", \"id\": 3}", 200, error(-32600)),
                Arguments.of("{\"method\": \"ping\", \"id\": 3}", 200, error(-32600)),
                Arguments.of("\"ping\"", 200, error(-32600)),
                // An id is echoed as sent: null is an id (not a notification), a long number is not cut to an int.
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [4], \"id\": null}", 200,
                        "{\"jsonrpc\": \"2.0\", \"result\": 4, \"id\": null}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [5], \"id\": 123456789012345678901234}",
                        200, "{\"jsonrpc\": \"2.0\", \"result\": 5, \"id\": 123456789012345678901234}"),
                // A notification is never answered, not even with an error.
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"foobar\"}", 204, null),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [\"x\"]}", 204, null),
                Arguments.of("[{\"jsonrpc\": \"2.0\", \"method\": \"fail\", \"params\": [3, \"x\"]}]", 204, null),
                // Not one JSON document: a parse error.
                Arguments.of("", 200, error(-32700)),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1} {}", 200, error(-32700)),
                // Wrong parameter types and counts: -32602 with the request's id, never coerced or truncated.
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [\"23\"], \"id\": 6}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 6}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [1.5], \"id\": 7}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 7}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt64\", \"params\": [\"5\"], \"id\": 8}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 8}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoBool\", \"params\": [\"true\"], \"id\": 9}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 9}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoBytes\", \"params\": [\"not base64!\"], \"id\": 10}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 10}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [], \"id\": 11}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 11}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoBool\", \"params\": [1], \"id\": 13}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 13}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoString\", \"params\": [null], \"id\": 14}", 200,
                        "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 14}"),
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoString\", \"params\": {\"value\": \"x\"}, \"id\": 15}",
                        200, "{\"jsonrpc\": \"2.0\", \"error\": -32602, \"id\": 15}"),
                // What the contract's writers send is still read: any JSON number for a float.
                Arguments.of("{\"jsonrpc\": \"2.0\", \"method\": \"echoFloat64\", \"params\": [2], \"id\": 12}", 200,
                        "{\"jsonrpc\": \"2.0\", \"result\": 2.0, \"id\": 12}"));
    }

    @ParameterizedTest
    @MethodSource("specificationCases")
    void theSpecificationsExamples(String text, int status, String expected) throws Exception {
        assertAnswer(text, status, expected);
    }

    @ParameterizedTest
    @MethodSource("ruleCases")
    void theSpecificationsRules(String text, int status, String expected) throws Exception {
        assertAnswer(text, status, expected);
    }

    /** Over the parser's limits (a string of 4 Mi characters, 100 levels): a parse error, not an empty answer. */
    @Test
    void aHugeStringIsAParseErrorAndTheServerServesOn() throws Exception {
        String huge = "{\"jsonrpc\": \"2.0\", \"method\": \"echoString\", \"id\": 1, \"params\": [\""
                + "a".repeat(32 << 20) + "\"]}";
        assertParseErrorThenServes(huge);
    }

    @Test
    void deepNestingIsAParseErrorAndTheServerServesOn() throws Exception {
        String deep = "{\"jsonrpc\": \"2.0\", \"method\": \"echoString\", \"id\": 1, \"params\": "
                + "[".repeat(10_000) + "]".repeat(10_000) + "}";
        assertParseErrorThenServes(deep);
    }

    @Test
    void theLargestContractValueIsStillRead() throws Exception {
        String mib = "x".repeat(1 << 20);
        Answer answer = post("{\"jsonrpc\": \"2.0\", \"method\": \"echoString\", \"id\": 1, \"params\": [\"" + mib + "\"]}");
        assertEquals(200, answer.status);
        assertEquals(mib, answer.body.get("result").textValue());
    }

    private static void assertParseErrorThenServes(String text) throws Exception {
        Answer answer = post(text);
        assertEquals(200, answer.status);
        assertTrue(answer.body != null && answer.body.has("error"), "no error object: " + answer.body);
        assertEquals(-32700, answer.body.get("error").get("code").intValue(), answer.body.toString());
        assertTrue(answer.body.get("id").isNull(), answer.body.toString());
        assertAnswer("{\"jsonrpc\": \"2.0\", \"method\": \"echoInt32\", \"params\": [9], \"id\": 9}", 200,
                "{\"jsonrpc\": \"2.0\", \"result\": 9, \"id\": 9}");
    }

    private static void assertAnswer(String text, int status, String expected) throws Exception {
        Answer answer = post(text);
        JsonNode want = expected == null ? null : JSON.readTree(expected);
        JsonNode got = codes(answer.body);
        // JsonNode equality: members in any order, as JSON objects are.
        assertTrue(status == answer.status && Objects.equals(want, got),
                "expected " + status + " " + want + ", got " + answer.status + " " + got);
    }

    private record Answer(int status, JsonNode body) {
    }

    private static Answer post(String text) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(HttpHost.url("127.0.0.1", host.port(), JsonRpcServer.PATH)))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(text)).build(),
                HttpResponse.BodyHandlers.ofString());
        String body = response.body();
        return new Answer(response.statusCode(), body.isEmpty() ? null : JSON.readTree(body));
    }

    /** An answer with each error object reduced to its code, as the expectations are written. */
    private static JsonNode codes(JsonNode answer) {
        if (answer instanceof ArrayNode list) {
            ArrayNode reduced = JSON.createArrayNode();
            list.forEach(member -> reduced.add(codes(member)));
            return reduced;
        }
        if (answer instanceof ObjectNode object && object.get("error") instanceof ObjectNode error) {
            ObjectNode reduced = object.deepCopy();
            reduced.set("error", error.get("code"));
            return reduced;
        }
        return answer;
    }
}
