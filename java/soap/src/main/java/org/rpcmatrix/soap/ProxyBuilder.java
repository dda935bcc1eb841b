package org.rpcmatrix.soap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.interceptor.Interceptor;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.message.Message;
import org.apache.cxf.transport.http.HTTPConduit;
import org.apache.cxf.transports.http.configuration.ConnectionType;
import org.apache.cxf.transports.http.configuration.HTTPClientPolicy;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.soap.generated.Bench;

/**
 * Builds the generated service proxy for a protocol, correctly configured by default; the attacks change one
 * thing each (no security header, another signer, a wrong password, a replaced WSS4J action, an extra
 * interceptor). HTTPConduit: keep-alive, no chunking (the request goes with a Content-Length, in one write
 * for small messages), no Expect: 100-continue (CXF sends none).
 */
final class ProxyBuilder {
    private static final long CONNECT_TIMEOUT_MS = 10_000;

    static {
        // HttpURLConnection rather than CXF 3.6's default java.net.http conduit, which hands every answer from
        // its selector thread to an executor thread while the caller waits on a future: ping p50 1.2 ms
        // against 0.4 ms on loopback (README, manifest notes). CXF's documented switch.
        System.setProperty("org.apache.cxf.transport.http.forceURLConnection", "true");
    }
    private static final long RECEIVE_TIMEOUT_MS = 120_000;

    private final ClientOptions options;
    private final WsSecurity.Mode mode;
    private final KeyMaterial keys;
    private boolean secured = true;
    private String signer = "client";
    private String password;
    private boolean closeConnection;
    private Map<Integer, Object> actions;
    private final List<Interceptor<? extends Message>> extraOut = new ArrayList<>();

    ProxyBuilder(ClientOptions options, WsSecurity.Mode mode, KeyMaterial keys) {
        this.options = options;
        this.mode = mode;
        this.keys = keys;
        this.password = keys == null ? null : keys.password;
    }

    /** Sends no wsse:Security header at all (answers are still checked). */
    ProxyBuilder unsecured() {
        secured = false;
        return this;
    }

    ProxyBuilder signer(String name) {
        signer = name;
        return this;
    }

    ProxyBuilder password(String value) {
        password = value;
        return this;
    }

    /** Replaces WSS4J actions by id (WSConstants.TS, SIGN...) with these {@code Action}s. */
    ProxyBuilder actions(Map<Integer, Object> replacements) {
        actions = replacements;
        return this;
    }

    ProxyBuilder outInterceptor(Interceptor<? extends Message> interceptor) {
        extraOut.add(interceptor);
        return this;
    }

    /** Closes the connection after the call, so that nothing after an attack reuses it. */
    ProxyBuilder closeConnection() {
        closeConnection = true;
        return this;
    }

    String address() {
        return "http://" + SoapPorts.hostForUrl(options.host()) + ":" + options.port() + SoapServer.PATH;
    }

    Bench build() throws Exception {
        JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
        factory.setServiceClass(Bench.class);
        factory.setWsdlURL(SoapPorts.wsdl(options.idl()));
        factory.setServiceName(SoapPorts.SERVICE);
        factory.setEndpointName(new QName(SoapPorts.NAMESPACE, SoapPorts.of(options.protocol()).portName()));
        factory.setAddress(address());
        secure(factory);
        factory.getOutInterceptors().addAll(extraOut);
        Bench proxy = (Bench) factory.create();
        configureConduit(proxy, closeConnection);
        return proxy;
    }

    /** Keep-alive (or close after the call), no chunking, bounded waits. */
    static void configureConduit(Bench proxy, boolean closeConnection) {
        HTTPClientPolicy policy = new HTTPClientPolicy();
        policy.setConnection(closeConnection ? ConnectionType.CLOSE : ConnectionType.KEEP_ALIVE);
        policy.setAllowChunking(false);
        policy.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        policy.setReceiveTimeout(RECEIVE_TIMEOUT_MS);
        ((HTTPConduit) ClientProxy.getClient(proxy).getConduit()).setClient(policy);
    }

    /** Adds this variant's WS-Security interceptors (the WSDL carries no security policy). */
    void secure(JaxWsProxyFactoryBean factory) {
        try {
            if (mode == WsSecurity.Mode.NONE) {
                return;
            }
            if (secured) {
                Map<String, Object> out = WsSecurity.clientOut(mode, keys, signer, password);
                if (actions != null) {
                    out.put(WSS4JOutInterceptor.WSS4J_ACTION_MAP, actions);
                }
                factory.getOutInterceptors().add(new WSS4JOutInterceptor(out));
            }
            if (mode.signs()) {
                factory.getInInterceptors().add(new WSS4JInInterceptor(WsSecurity.clientIn(mode, keys)));
                factory.getInInterceptors().add(WsSecurity.coverage(mode));
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot configure WS-Security: " + e.getMessage(), e);
        }
    }

    static void destroy(Bench proxy) {
        Client client = ClientProxy.getClient(proxy);
        client.destroy();
    }

    static String conduit(Bench proxy) {
        return ClientProxy.getClient(proxy).getConduit().getClass().getSimpleName();
    }
}
