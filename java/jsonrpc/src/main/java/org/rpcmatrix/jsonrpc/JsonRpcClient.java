package org.rpcmatrix.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.googlecode.jsonrpc4j.ExceptionResolver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.http.HttpEntity;
import org.apache.http.client.entity.GzipCompressingEntity;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.config.SocketConfig;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.DefaultClientConnectionReuseStrategy;
import org.apache.http.impl.client.HttpClientBuilder;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.impl.conn.SystemDefaultRoutePlanner;
import org.apache.http.util.EntityUtils;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.httphost.HttpHost;

/**
 * The contract over jsonrpc4j's JsonRpcClient (request writing, response reading, error objects) on Apache
 * HttpClient 4.5 with a pooled, kept-alive connection and TCP_NODELAY. jsonrpc4j's own JsonRpcHttpClient is not
 * used: it calls HttpURLConnection.disconnect() after every call, which closes the kept-alive connection, so
 * every call would open a new one.
 */
public final class JsonRpcClient extends OperationClient {
    private final com.googlecode.jsonrpc4j.JsonRpcClient rpc;
    private final CloseableHttpClient http;
    private final String url;
    private final boolean gzip;

    private JsonRpcClient(com.googlecode.jsonrpc4j.JsonRpcClient rpc, CloseableHttpClient http, String url,
            boolean gzip) {
        this.rpc = rpc;
        this.http = http;
        this.url = url;
        this.gzip = gzip;
    }

    public static JsonRpcClient connect(ClientOptions options) {
        return create(options.host(), options.port(), options.protocol().gzip());
    }

    static JsonRpcClient create(String host, int port) {
        return create(host, port, false);
    }

    /**
     * {@code gzip} (jsonrpc-gzip): HttpClient's own compression, as its users turn it on: each request body in a
     * GzipCompressingEntity (sent chunked, its length unknown until compressed) and Accept-Encoding with
     * transparent decompression of the answer.
     */
    static JsonRpcClient create(String host, int port, boolean gzip) {
        ObjectMapper mapper = JsonRpcMapping.objectMapper();
        com.googlecode.jsonrpc4j.JsonRpcClient rpc = new com.googlecode.jsonrpc4j.JsonRpcClient(mapper);
        rpc.setExceptionResolver(ERRORS);
        PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
        pool.setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build());
        pool.setMaxTotal(1);
        pool.setDefaultMaxPerRoute(1);
        HttpClientBuilder builder = HttpClients.custom()
                .setConnectionManager(pool)
                .disableCookieManagement()
                .disableAuthCaching()
                .disableRedirectHandling()
                // The JDK's proxy properties (http.proxyHost, http.proxyPort, http.nonProxyHosts) through its
                // default ProxySelector; useSystemProperties() would also change the reuse strategy, User-Agent
                // and credentials
                .setRoutePlanner(new SystemDefaultRoutePlanner(null))
                // Through a proxy the connection is not kept: tinyproxy 1.11 closes each client connection after its
                // answer and drops the server's Connection: close, and the next call on it failed
                // (NoHttpResponseException; a POST is not retried)
                .setConnectionReuseStrategy((response, context) ->
                        HttpClientContext.adapt(context).getHttpRoute().getProxyHost() == null
                        && DefaultClientConnectionReuseStrategy.INSTANCE.keepAlive(response, context));
        if (!gzip) {
            builder.disableContentCompression();
        }
        return new JsonRpcClient(rpc, builder.build(), HttpHost.url(host, port, JsonRpcServer.PATH), gzip);
    }

    /** An error object becomes the contract's BenchError: {code, message} as the server raised them. */
    static final ExceptionResolver ERRORS = new ExceptionResolver() {
        @Override
        public Throwable resolveException(ObjectNode response) {
            JsonNode error = response.get("error");
            JsonNode code = error == null ? null : error.get("code");
            JsonNode message = error == null ? null : error.get("message");
            if (code == null || !code.canConvertToInt() || !code.isIntegralNumber() || message == null
                    || !message.isTextual()) {
                return new IllegalStateException("malformed JSON-RPC error: " + response);
            }
            return new BenchError(code.intValue(), message.textValue());
        }
    };

    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        Object[] params = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            // int8 and int16 travel as JSON integers; the rest as Jackson writes their Java types.
            params[i] = args[i] instanceof Byte b ? (Object) b.intValue()
                    : args[i] instanceof Short s ? (Object) s.intValue() : args[i];
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        rpc.invoke(op.contractName(), params, body);
        HttpPost post = new HttpPost(url);
        HttpEntity entity = new ByteArrayEntity(body.toByteArray(), ContentType.APPLICATION_JSON);
        post.setEntity(gzip ? new GzipCompressingEntity(entity) : entity);
        try (CloseableHttpResponse response = http.execute(post)) {
            try (InputStream in = response.getEntity().getContent()) {
                Object result = rpc.readResponse(JsonRpcMapping.answerType(op.returnType()), in);
                return JsonRpcMapping.answerFromWire(op.returnType(), result);
            } catch (Exception e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            } finally {
                // Reads what is left so that the connection goes back to the pool.
                EntityUtils.consumeQuietly(response.getEntity());
            }
        }
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
