package org.rpcmatrix.soap;

import java.util.Map;
import org.rpcmatrix.core.adapter.AttackClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ClosesEachConnection;
import org.rpcmatrix.core.adapter.MetadataClient;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationCaller;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.soap.generated.Bench;

/** The contract over the generated JAX-WS proxy; for the WS-Security variants, also the attacks. */
public final class SoapClient extends OperationClient implements AttackClient, MetadataClient, ClosesEachConnection {
    static final OperationCaller<Bench> CALLS = OperationCaller.over(Bench.class, SoapMapping.INSTANCE);

    private final ClientOptions options;
    private final WsSecurity.Mode mode;
    private final KeyMaterial keys;
    private final Bench proxy;

    SoapClient(ClientOptions options, WsSecurity.Mode mode, KeyMaterial keys, Bench proxy) {
        this.options = options;
        this.mode = mode;
        this.keys = keys;
        this.proxy = proxy;
    }

    public static SoapClient connect(ClientOptions options) throws Exception {
        WsSecurity.Mode mode = WsSecurity.Mode.of(options.protocol());
        KeyMaterial keys = mode == WsSecurity.Mode.NONE ? null : KeyMaterial.load(options.secrets());
        Bench proxy = new ProxyBuilder(options, mode, keys).build();
        return new SoapClient(options, mode, keys, proxy);
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("soap", SoapPorts.of(options.protocol()).soapVersion(), "conduit", ProxyBuilder.conduit(proxy));
    }

    /** One call on the proxy, values per {@link SoapMapping}; the declared fault becomes BenchError. */
    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        return CALLS.call(proxy, op, args);
    }

    /**
     * {@code --connection per-call}: the proxy CXF built from the WSDL kept, its conduit asking for
     * {@code Connection: close} (CXF's HTTPClientPolicy), so the server closes each connection after its answer.
     */
    @Override
    public void closeEachConnection() {
        ProxyBuilder.configureConduit(proxy, true);
    }

    @Override
    public String attack(String attack, Operation op, Object[] args) throws Exception {
        if (mode == WsSecurity.Mode.NONE) {
            throw new UnsupportedOperationException("plain SOAP makes no WS-Security attacks");
        }
        return new Attacks(new ProxyBuilder(options, mode, keys), keys).make(attack, op, args);
    }

    @Override
    public void pingAfterAttack() throws Exception {
        Bench fresh = new ProxyBuilder(options, mode, keys).closeConnection().build();
        try {
            fresh.ping();
        } finally {
            ProxyBuilder.destroy(fresh);
        }
    }

    /** A client built from the server's ?wsdl (WsdlCheck), with this variant's WS-Security added. */
    @Override
    public Check publishedMetadata() {
        ProxyBuilder builder = new ProxyBuilder(options, mode, keys);
        com.fasterxml.jackson.databind.node.ObjectNode answer = WsdlCheck.check(builder.address() + "?wsdl",
                builder::secure);
        return new Check(answer.get("ok").booleanValue(), answer.get("reason").textValue());
    }

    @Override
    public void close() {
        ProxyBuilder.destroy(proxy);
    }
}
