package org.rpcmatrix.hessian;

import com.caucho.burlap.client.BurlapProxyFactory;
import com.caucho.burlap.io.AbstractBurlapInput;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.SerializerFactory;
import java.io.InputStream;
import java.io.OutputStream;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.mapping.OperationCaller;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.httphost.HttpHost;

/**
 * The contract over Caucho's proxies: HessianProxyFactory (version 1 or 2 for requests and replies, from the
 * registry's variant) or BurlapProxyFactory. Both send each call with HttpURLConnection, whose keep-alive cache
 * reuses the connection from call to call; requests are buffered (not chunked) so they carry a Content-Length.
 */
public final class HessianClient extends OperationClient {
    private static final OperationCaller<HessianApi> CALLS =
            OperationCaller.over(HessianApi.class, HessianMapping.INSTANCE);

    private final HessianApi proxy;

    HessianClient(HessianApi proxy) {
        this.proxy = proxy;
    }

    public static HessianClient connect(ClientOptions options) throws Exception {
        return new HessianClient(proxy(options.protocol(), options.host(), options.port()));
    }

    static HessianApi proxy(Protocol protocol, String host, int port) throws Exception {
        if (Main.BURLAP.equals(protocol.family())) {
            BurlapProxyFactory factory = new ContractBurlapProxyFactory();
            return (HessianApi) factory.create(HessianApi.class, HttpHost.url(host, port, HessianServer.BURLAP_PATH));
        }
        boolean version2 = "2".equals(protocol.variant("version"));
        HessianProxyFactory factory = version2 ? new HessianProxyFactory() : new Hessian1ProxyFactory();
        factory.setHessian2Request(version2);
        factory.setHessian2Reply(version2);
        factory.setChunkedPost(false);
        factory.setOverloadEnabled(false);
        factory.setSerializerFactory(ContractClasses.restrict(new SerializerFactory()));
        return (HessianApi) factory.create(HessianApi.class, HttpHost.url(host, port, HessianServer.HESSIAN_PATH),
                HessianClient.class.getClassLoader());
    }

    /**
     * Hessian 4.0.66's HessianProxy reads a version 1 reply ('r' 1 0) with the factory's getHessianInput(),
     * which returns a Hessian 2 reader: every reply whose encoding differs between the versions (long strings,
     * lists, maps, faults) is misread. The version 1 reader the library ships is used for it instead, and the
     * version 1 reader and writer get the buffers that Hessian 2's have built in ({@link StreamBuffers}).
     */
    private static final class Hessian1ProxyFactory extends HessianProxyFactory {
        @Override
        public AbstractHessianInput getHessianInput(InputStream is) {
            return getHessian1Input(StreamBuffers.in(is));
        }

        /** HessianProxy flushes the writer after the call, which flushes the buffer. */
        @Override
        public AbstractHessianOutput getHessianOutput(OutputStream os) {
            return super.getHessianOutput(StreamBuffers.out(os));
        }
    }

    /**
     * Burlap's proxy factory builds its readers with a default SerializerFactory: this one reads the contract's,
     * through a buffer ({@link StreamBuffers}). The request is not buffered: BurlapProxy flushes the connection's
     * stream, not the writer, so a buffer between them would never be emptied.
     */
    private static final class ContractBurlapProxyFactory extends BurlapProxyFactory {
        private final SerializerFactory serializers = ContractClasses.restrict(new SerializerFactory());

        @Override
        public AbstractBurlapInput getBurlapInput(InputStream is) {
            AbstractBurlapInput in = super.getBurlapInput(StreamBuffers.in(is));
            in.setSerializerFactory(serializers);
            return in;
        }
    }

    /** A fault carrying the contract's detail is BenchError (HessianMapping); checked exceptions arrive wrapped by the proxy. */
    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        return CALLS.call(proxy, op, args);
    }

    @Override
    public void close() {
        // HttpURLConnection's keep-alive cache closes idle connections itself
    }
}
