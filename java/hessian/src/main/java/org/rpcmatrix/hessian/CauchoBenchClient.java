package org.rpcmatrix.hessian;

import com.caucho.burlap.client.BurlapProxyFactory;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.burlap.io.AbstractBurlapInput;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.SerializerFactory;
import java.io.InputStream;
import java.util.List;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Protocol;
import org.rpcmatrix.core.Record;
import org.rpcmatrix.httphost.HttpHost;

/**
 * The contract over Caucho's proxies: HessianProxyFactory (version 1 or 2 for requests and replies, from the
 * registry's variant) or BurlapProxyFactory. Both send each call with HttpURLConnection, whose keep-alive cache
 * reuses the connection from call to call; requests are buffered (not chunked) so they carry a Content-Length.
 */
public final class CauchoBenchClient implements BenchClient {
    private final WireApi proxy;

    CauchoBenchClient(WireApi proxy) {
        this.proxy = proxy;
    }

    public static CauchoBenchClient connect(ClientOptions options) throws Exception {
        return new CauchoBenchClient(proxy(options.protocol(), options.host(), options.port()));
    }

    static WireApi proxy(Protocol protocol, String host, int port) throws Exception {
        if (Main.BURLAP.equals(protocol.family())) {
            BurlapProxyFactory factory = new ContractBurlapProxyFactory();
            return (WireApi) factory.create(WireApi.class, HttpHost.url(host, port, CauchoServer.BURLAP_PATH));
        }
        boolean version2 = "2".equals(protocol.variant("version"));
        HessianProxyFactory factory = version2 ? new HessianProxyFactory() : new Hessian1ProxyFactory();
        factory.setHessian2Request(version2);
        factory.setHessian2Reply(version2);
        factory.setChunkedPost(false);
        factory.setOverloadEnabled(false);
        factory.setSerializerFactory(ContractClasses.restrict(new SerializerFactory()));
        return (WireApi) factory.create(WireApi.class, HttpHost.url(host, port, CauchoServer.HESSIAN_PATH),
                CauchoBenchClient.class.getClassLoader());
    }

    /**
     * Hessian 4.0.66's HessianProxy reads a version 1 reply ('r' 1 0) with the factory's getHessianInput(),
     * which returns a Hessian 2 reader: every reply whose encoding differs between the versions (long strings,
     * lists, maps, faults) is misread. The version 1 reader the library ships is used for it instead.
     */
    private static final class Hessian1ProxyFactory extends HessianProxyFactory {
        @Override
        public AbstractHessianInput getHessianInput(InputStream is) {
            return getHessian1Input(is);
        }
    }

    /** Burlap's proxy factory builds its readers with a default SerializerFactory: this one reads the contract's. */
    private static final class ContractBurlapProxyFactory extends BurlapProxyFactory {
        private final SerializerFactory serializers = ContractClasses.restrict(new SerializerFactory());

        @Override
        public AbstractBurlapInput getBurlapInput(InputStream is) {
            AbstractBurlapInput in = super.getBurlapInput(is);
            in.setSerializerFactory(serializers);
            return in;
        }
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    /** A fault carrying the contract's detail is BenchError; checked exceptions arrive wrapped by the proxy. */
    private static <T> T call(Call<T> call) throws Exception {
        try {
            return call.run();
        } catch (Exception e) {
            throw FaultDetails.toBenchError(e);
        }
    }

    @Override
    public void ping() throws Exception {
        call(() -> {
            proxy.ping();
            return null;
        });
    }

    @Override
    public boolean echoBool(boolean value) throws Exception {
        return call(() -> proxy.echoBool(value));
    }

    @Override
    public byte echoInt8(byte value) throws Exception {
        return (byte) Carriage.int8(call(() -> proxy.echoInt8(value)));
    }

    @Override
    public short echoInt16(short value) throws Exception {
        return (short) Carriage.int16(call(() -> proxy.echoInt16(value)));
    }

    @Override
    public int echoInt32(int value) throws Exception {
        return call(() -> proxy.echoInt32(value));
    }

    @Override
    public long echoInt64(long value) throws Exception {
        return call(() -> proxy.echoInt64(value));
    }

    @Override
    public float echoFloat32(float value) throws Exception {
        return Carriage.toFloat32(call(() -> proxy.echoFloat32(value)));
    }

    @Override
    public double echoFloat64(double value) throws Exception {
        return call(() -> proxy.echoFloat64(value));
    }

    @Override
    public String echoString(String value) throws Exception {
        return call(() -> proxy.echoString(value));
    }

    @Override
    public byte[] echoBytes(byte[] value) throws Exception {
        return call(() -> proxy.echoBytes(value));
    }

    @Override
    public boolean isPrime(int n) throws Exception {
        return call(() -> proxy.isPrime(n));
    }

    @Override
    public double average(double[] values) throws Exception {
        return call(() -> proxy.average(values));
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return call(() -> proxy.randomDoubles(count, seed));
    }

    @Override
    public double[] logTransform(double[] values) throws Exception {
        return call(() -> proxy.logTransform(values));
    }

    @Override
    public Record getRecord(String key) throws Exception {
        return Carriage.record(call(() -> proxy.getRecord(key)));
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws Exception {
        return Carriage.books(call(() -> proxy.searchBooks(query, count)));
    }

    @Override
    public List<Item> getItems(int count) throws Exception {
        return Carriage.items(call(() -> proxy.getItems(count)));
    }

    @Override
    public void fail(int code, String message) throws Exception {
        call(() -> {
            proxy.fail(code, message);
            return null;
        });
    }

    @Override
    public void close() {
        // HttpURLConnection's keep-alive cache closes idle connections itself
    }
}
