package org.rpcmatrix.jsonrpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.googlecode.jsonrpc4j.ErrorResolver.JsonError;
import com.googlecode.jsonrpc4j.JsonRpcBasicServer;
import java.io.IOException;
import java.io.InputStream;

/**
 * JSON-RPC 2.0 as its specification writes it (sections 4 to 7), in front of jsonrpc4j 1.6. jsonrpc4j
 * dispatches each valid request object (method lookup, parameter conversion, the call, the error resolver); what
 * it gets wrong is done here, once per request, before it runs:
 * <ul>
 * <li>the body is parsed once, under limits (nesting depth, string and document length), and a document that is
 * not JSON, or not one JSON value, or over a limit, is -32700 with {@code "id": null} (jsonrpc4j answers
 * {@code "id": "null"}, a string, and answers nothing at all, an empty HTTP 200, to what its parser's own
 * limits stop);</li>
 * <li>a request object is checked before dispatch: {@code "jsonrpc"} exactly "2.0", {@code "method"} a string,
 * {@code "params"} an array or an object when present, {@code "id"} a string, a number or null when present;
 * anything else is -32600 with {@code "id": null} (jsonrpc4j ran a "1.0" request and looked up
 * {@code "method": 1} as the method "1");</li>
 * <li>a batch is dispatched member by member and answered with the list of its members' answers, notifications
 * left out: {@code []} is one -32600, a batch of notifications is no body at all (jsonrpc4j answered {@code []}
 * and {@code [null, null]});</li>
 * <li>a notification is never answered, not even with an error; a request's id is echoed as sent (jsonrpc4j read
 * {@code "id": null} as a notification and cut a long integer id to an int);</li>
 * <li>a parameter that does not convert to its declared type is -32602 with the request's id: jsonrpc4j rethrows
 * Jackson's conversion error "to be handled as PARSE_ERROR" (-32700), and since the document has already been
 * parsed here, that error can only be the parameters'.</li>
 * </ul>
 * Parameters stay typed in {@link JsonRpcApi}: taking them as JsonNode would have jsonrpc4j copy every
 * parameter's tree (it reads each one back through {@code readerFor(type)}) on every call.
 */
final class JsonRpcDispatcher extends JsonRpcBasicServer {
    /** Deeper than any request of the contract (params, an array, its numbers: 3 levels) by far. */
    static final int MAX_NESTING_DEPTH = 100;
    /** Four times the contract's largest text (the 1 MiB string of echoString; echoBytes' 1 MiB is 1.4 Mi in base64). */
    static final int MAX_STRING_LENGTH = 4 << 20;
    /** The contract's message limit (idl/CONTRACT.md, Limits); the HTTP host refuses a longer body before this. */
    static final long MAX_DOCUMENT_LENGTH = 64L << 20;

    private static final String VERSION = "2.0";
    /** Stands in for {@code "id": null} while jsonrpc4j dispatches, which would take it for a notification. */
    private static final IntNode NULL_ID_STAND_IN = IntNode.valueOf(0);

    private final ObjectMapper mapper;
    private final ObjectReader documents;

    JsonRpcDispatcher(ObjectMapper mapper, JsonRpcApi service) {
        super(mapper, service, JsonRpcApi.class);
        this.mapper = mapper;
        this.documents = documentReader();
    }

    /** Reads one JSON document under the limits above; anything after it but whitespace is a parse error. */
    private static ObjectReader documentReader() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxStringLength(MAX_STRING_LENGTH)
                        .maxDocumentLength(MAX_DOCUMENT_LENGTH)
                        .build())
                .build();
        return JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build()
                .readerFor(JsonNode.class);
    }

    /**
     * The answer to a request body: one response object, a list of them for a batch, or null when nothing is
     * answered (a notification, or a batch of notifications only). An IOException is the body's transport
     * failing (the peer gone, or the host's body limit, which answers 413 itself).
     */
    JsonNode answer(InputStream body) throws IOException {
        JsonNode document;
        try {
            document = documents.readTree(body);
        } catch (JsonProcessingException e) {
            // Invalid JSON, more than one value, or a limit (StreamConstraintsException) reached.
            return error(NullNode.getInstance(), JsonError.PARSE_ERROR.code, "Parse error: " + e.getOriginalMessage());
        }
        if (document == null || document.isMissingNode()) {
            return error(NullNode.getInstance(), JsonError.PARSE_ERROR.code, "Parse error: no JSON value");
        }
        if (!document.isArray()) {
            return one(document);
        }
        if (document.isEmpty()) {
            return error(NullNode.getInstance(), JsonError.INVALID_REQUEST.code, "Invalid Request: empty batch");
        }
        ArrayNode answers = mapper.createArrayNode();
        for (JsonNode request : document) {
            JsonNode answer = one(request);
            if (answer != null) {
                answers.add(answer);
            }
        }
        return answers.isEmpty() ? null : answers;
    }

    /** One request object: its response, or null for a notification. */
    private JsonNode one(JsonNode request) {
        String invalid = invalidity(request);
        if (invalid != null) {
            return error(NullNode.getInstance(), JsonError.INVALID_REQUEST.code, "Invalid Request: " + invalid);
        }
        ObjectNode call = (ObjectNode) request;
        JsonNode id = call.get("id"); // absent: a notification
        if (id != null && id.isNull()) {
            call.set("id", NULL_ID_STAND_IN);
        }
        JsonNode answer;
        try {
            answer = handleJsonNodeRequest(call).getResponse();
        } catch (JsonProcessingException e) {
            answer = error(id, JsonError.METHOD_PARAMS_INVALID.code, "Invalid params: " + e.getOriginalMessage());
        } catch (RuntimeException e) {
            answer = error(id, JsonError.INTERNAL_ERROR.code, "Internal error: " + e.getClass().getSimpleName());
        }
        if (id == null) {
            return null;
        }
        if (answer instanceof ObjectNode response) {
            response.set("id", id); // as the request wrote it, where jsonrpc4j read it as an int, long, double or text
        }
        return answer;
    }

    /** Why a value is not a JSON-RPC 2.0 request object (section 4), or null when it is one. */
    static String invalidity(JsonNode request) {
        if (!request.isObject()) {
            return "not an object";
        }
        JsonNode version = request.get("jsonrpc");
        if (version == null || !version.isTextual() || !VERSION.equals(version.textValue())) {
            return "\"jsonrpc\" must be \"2.0\"";
        }
        JsonNode method = request.get("method");
        if (method == null || !method.isTextual()) {
            return "\"method\" must be a string";
        }
        JsonNode params = request.get("params");
        if (params != null && !params.isArray() && !params.isObject()) {
            return "\"params\" must be an array or an object";
        }
        JsonNode id = request.get("id");
        if (id != null && !id.isTextual() && !id.isNumber() && !id.isNull()) {
            return "\"id\" must be a string, a number or null";
        }
        return null;
    }

    /** An error response, members in jsonrpc4j's order (jsonrpc, id, error). */
    private ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = mapper.createObjectNode();
        response.put("jsonrpc", VERSION);
        response.set("id", id);
        ObjectNode error = response.putObject("error");
        error.put("code", code);
        error.put("message", message);
        return response;
    }
}
