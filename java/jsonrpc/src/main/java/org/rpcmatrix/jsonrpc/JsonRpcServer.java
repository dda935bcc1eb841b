package org.rpcmatrix.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.googlecode.jsonrpc4j.ErrorResolver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.mapping.OperationProxy;
import org.rpcmatrix.core.reference.InjectedSpin;
import org.rpcmatrix.httphost.HttpHost;

/**
 * jsonrpc4j at {@code /jsonrpc} in the shared embedded Jetty (idl/CONTRACT.md, carriage), behind
 * {@link JsonRpcDispatcher}: the JSON-RPC 2.0 specification's parse, request and batch rules.
 */
final class JsonRpcServer {
    static final String PATH = "/jsonrpc";
    static final String CONTENT_TYPE = "application/json";

    private JsonRpcServer() {
    }

    static RunningServer start(ServerOptions options) throws Exception {
        if (options.protocol().gzip()) {
            // Refused rather than served uncompressed under the variant's name.
            throw new IllegalArgumentException("jsonrpc4j 1.6's JsonRpcServer cannot serve " + options.protocol().name()
                    + ": it ignores the Accept-Encoding it reads and never reads Content-Encoding");
        }
        return HttpHost.start(options, "jsonrpc", Map.of(PATH, servlet(service(InjectedSpin.served()))));
    }

    /** {@link JsonRpcApi} answered by {@code bench} through the operation table, values per {@link JsonRpcMapping}. */
    static JsonRpcApi service(Bench bench) {
        return OperationProxy.serve(JsonRpcApi.class, bench, JsonRpcMapping.INSTANCE);
    }

    /**
     * jsonrpc4j behind {@link JsonRpcDispatcher}, the layer that makes it answer as the JSON-RPC 2.0 specification
     * says. Every answer with a body is HTTP 200, errors included (idl/CONTRACT.md: the error is in the body), with
     * a Content-Length, as jsonrpc4j's JsonRpcServer wrote it; nothing to answer (notifications) is HTTP 204.
     */
    static HttpServlet servlet(JsonRpcApi service) {
        ObjectMapper mapper = JsonRpcMapping.serverMapper();
        JsonRpcDispatcher rpc = new JsonRpcDispatcher(mapper, service);
        rpc.setErrorResolver(BENCH_ERRORS);
        // Errors are answers here (BenchError, a refused argument): no log line per call.
        rpc.setShouldLogInvocationErrors(false);
        return new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                JsonNode answer = rpc.answer(request.getInputStream());
                if (answer == null) {
                    response.setStatus(HttpServletResponse.SC_NO_CONTENT);
                    return;
                }
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                mapper.writeValue(body, answer);
                body.write('\n');
                response.setContentType(CONTENT_TYPE);
                response.setStatus(HttpServletResponse.SC_OK);
                response.setContentLength(body.size());
                OutputStream out = response.getOutputStream();
                body.writeTo(out);
                out.flush();
            }
        };
    }

    /** BenchError → {code, message} as raised; a refused argument → -32602; anything else → -32603. */
    static final ErrorResolver BENCH_ERRORS = new ErrorResolver() {
        @Override
        public JsonError resolveError(Throwable t, Method method, List<JsonNode> arguments) {
            if (t instanceof BenchError e) {
                return new JsonError(e.code(), e.getMessage(), null);
            }
            if (t instanceof JsonRpcMapping.InvalidParams) {
                return new JsonError(JsonError.METHOD_PARAMS_INVALID.code, t.getMessage(), null);
            }
            return new JsonError(JsonError.INTERNAL_ERROR.code, String.valueOf(t.getMessage()), null);
        }
    };
}
