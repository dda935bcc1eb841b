package org.rpcmatrix.httpinvoker;

import java.io.IOException;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.config.SocketConfig;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.DefaultClientConnectionReuseStrategy;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.impl.conn.SystemDefaultRoutePlanner;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationCaller;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.httphost.HttpHost;
import org.rpcmatrix.javaserial.JavaSerialMapping;
import org.springframework.remoting.httpinvoker.HttpComponentsHttpInvokerRequestExecutor;
import org.springframework.remoting.httpinvoker.HttpInvokerProxyFactoryBean;

/**
 * The contract over Spring's HttpInvokerProxyFactoryBean with HttpComponentsHttpInvokerRequestExecutor: Apache
 * HttpClient 4.5 with a pooling connection manager keeps the connection alive between calls and sets
 * TCP_NODELAY, where the default SimpleHttpInvokerRequestExecutor (HttpURLConnection) offers neither setting.
 */
// Spring deprecated its remoting in 5.3 (it is Java serialization); the suite measures it as deployed.
@SuppressWarnings("deprecation")
public final class HttpInvokerClient extends OperationClient {
    private static final OperationCaller<HttpInvokerApi> CALLS =
            OperationCaller.over(HttpInvokerApi.class, JavaSerialMapping.INSTANCE);

    private final HttpInvokerApi proxy;
    private final CloseableHttpClient http;

    private HttpInvokerClient(HttpInvokerApi proxy, CloseableHttpClient http) {
        this.proxy = proxy;
        this.http = http;
    }

    public static HttpInvokerClient connect(ClientOptions options) {
        return create(options.host(), options.port(), HttpInvokerApi.class);
    }

    static HttpInvokerClient create(String host, int port, Class<?> api) {
        PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
        pool.setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build());
        pool.setMaxTotal(1);
        pool.setDefaultMaxPerRoute(1);
        CloseableHttpClient http = HttpClients.custom()
                .setConnectionManager(pool)
                .disableContentCompression()
                .disableCookieManagement()
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
                        && DefaultClientConnectionReuseStrategy.INSTANCE.keepAlive(response, context))
                .build();
        HttpComponentsHttpInvokerRequestExecutor executor = new HttpComponentsHttpInvokerRequestExecutor(http);
        executor.setAcceptGzipEncoding(false);
        HttpInvokerProxyFactoryBean factory = new HttpInvokerProxyFactoryBean();
        factory.setServiceUrl(HttpHost.url(host, port, HttpInvokerServer.PATH));
        factory.setServiceInterface(api);
        factory.setHttpInvokerRequestExecutor(executor);
        factory.afterPropertiesSet();
        return new HttpInvokerClient((HttpInvokerApi) factory.getObject(), http);
    }

    /** A proxy of another interface, for tests that send what the server must refuse. */
    static Object rawProxy(String host, int port, Class<?> api) {
        HttpInvokerProxyFactoryBean factory = new HttpInvokerProxyFactoryBean();
        factory.setServiceUrl(HttpHost.url(host, port, HttpInvokerServer.PATH));
        factory.setServiceInterface(api);
        factory.setHttpInvokerRequestExecutor(new HttpComponentsHttpInvokerRequestExecutor());
        factory.afterPropertiesSet();
        return factory.getObject();
    }

    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        return CALLS.call(proxy, op, args);
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
