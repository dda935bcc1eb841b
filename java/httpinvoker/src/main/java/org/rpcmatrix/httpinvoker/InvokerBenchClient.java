package org.rpcmatrix.httpinvoker;

import java.util.ArrayList;
import java.util.List;
import org.apache.http.config.SocketConfig;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;
import org.rpcmatrix.httphost.HttpHost;
import org.springframework.remoting.httpinvoker.HttpComponentsHttpInvokerRequestExecutor;
import org.springframework.remoting.httpinvoker.HttpInvokerProxyFactoryBean;

/**
 * The contract over Spring's HttpInvokerProxyFactoryBean with HttpComponentsHttpInvokerRequestExecutor: Apache
 * HttpClient 4.5 with a pooling connection manager keeps the connection alive between calls and sets
 * TCP_NODELAY, where the default SimpleHttpInvokerRequestExecutor (HttpURLConnection) offers neither setting.
 */
public final class InvokerBenchClient implements BenchClient {
    private final InvokerApi proxy;
    private final CloseableHttpClient http;

    private InvokerBenchClient(InvokerApi proxy, CloseableHttpClient http) {
        this.proxy = proxy;
        this.http = http;
    }

    public static InvokerBenchClient connect(ClientOptions options) {
        return create(options.host(), options.port(), InvokerApi.class);
    }

    static InvokerBenchClient create(String host, int port, Class<?> api) {
        PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
        pool.setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build());
        pool.setMaxTotal(1);
        pool.setDefaultMaxPerRoute(1);
        CloseableHttpClient http = HttpClients.custom()
                .setConnectionManager(pool)
                .disableContentCompression()
                .disableCookieManagement()
                .disableRedirectHandling()
                .build();
        HttpComponentsHttpInvokerRequestExecutor executor = new HttpComponentsHttpInvokerRequestExecutor(http);
        executor.setAcceptGzipEncoding(false);
        HttpInvokerProxyFactoryBean factory = new HttpInvokerProxyFactoryBean();
        factory.setServiceUrl(HttpHost.url(host, port, InvokerServer.PATH));
        factory.setServiceInterface(api);
        factory.setHttpInvokerRequestExecutor(executor);
        factory.afterPropertiesSet();
        return new InvokerBenchClient((InvokerApi) factory.getObject(), http);
    }

    /** A proxy of another interface, for tests that send what the server must refuse. */
    static Object rawProxy(String host, int port, Class<?> api) {
        HttpInvokerProxyFactoryBean factory = new HttpInvokerProxyFactoryBean();
        factory.setServiceUrl(HttpHost.url(host, port, InvokerServer.PATH));
        factory.setServiceInterface(api);
        factory.setHttpInvokerRequestExecutor(new HttpComponentsHttpInvokerRequestExecutor());
        factory.afterPropertiesSet();
        return factory.getObject();
    }

    @Override
    public void ping() {
        proxy.ping();
    }

    @Override
    public boolean echoBool(boolean value) {
        return proxy.echoBool(value);
    }

    @Override
    public byte echoInt8(byte value) {
        return proxy.echoInt8(value);
    }

    @Override
    public short echoInt16(short value) {
        return proxy.echoInt16(value);
    }

    @Override
    public int echoInt32(int value) {
        return proxy.echoInt32(value);
    }

    @Override
    public long echoInt64(long value) {
        return proxy.echoInt64(value);
    }

    @Override
    public float echoFloat32(float value) {
        return proxy.echoFloat32(value);
    }

    @Override
    public double echoFloat64(double value) {
        return proxy.echoFloat64(value);
    }

    @Override
    public String echoString(String value) {
        return proxy.echoString(value);
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return proxy.echoBytes(value);
    }

    @Override
    public boolean isPrime(int n) {
        return proxy.isPrime(n);
    }

    @Override
    public double average(double[] values) {
        return proxy.average(values);
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return proxy.randomDoubles(count, seed);
    }

    @Override
    public double[] logTransform(double[] values) {
        return proxy.logTransform(values);
    }

    @Override
    public Record getRecord(String key) {
        InvokerApi.InvokerRecord r = proxy.getRecord(key);
        return new Record(r.id(), r.tags(), r.values());
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws Exception {
        List<Book> out = new ArrayList<>();
        for (InvokerApi.InvokerBook b : proxy.searchBooks(query, count)) {
            out.add(new Book(b.title(), b.authors(), b.price(), b.listPrice(), b.publisher(), b.year(), b.month(),
                    b.keywords(), b.isbn(), b.starRating(), b.url()));
        }
        return out;
    }

    @Override
    public List<Item> getItems(int count) throws Exception {
        List<Item> out = new ArrayList<>();
        for (InvokerApi.InvokerItem i : proxy.getItems(count)) {
            out.add(new Item(i.id(), i.title(), i.description(), i.category(), i.owner(), i.created(), i.updated(),
                    i.quantity(), i.price(), i.weight()));
        }
        return out;
    }

    @Override
    public void fail(int code, String message) throws Exception {
        proxy.fail(code, message);
    }

    @Override
    public void close() throws Exception {
        http.close();
    }
}
