package org.rpcmatrix.soap;

import java.util.Map;
import javax.xml.namespace.QName;
import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.endpoint.Server;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.transport.http_jetty.JettyHTTPServerEngine;
import org.apache.cxf.transport.http_jetty.JettyHTTPServerEngineFactory;
import org.apache.cxf.ws.security.SecurityConstants;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.cache.WSS4JCacheUtil;
import org.eclipse.jetty.server.ServerConnector;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.mapping.OperationProxy;
import org.rpcmatrix.core.reference.InjectedSpin;
import org.rpcmatrix.soap.generated.Bench;

/**
 * The JAX-WS endpoint on CXF's embedded Jetty transport, published from the contract's WSDL (the SOAP 1.1 or
 * 1.2 port of idl/bench.wsdl) at {@link #PATH}: HTTP/1.1 keep-alive, no logging interceptors, no schema
 * validation (CXF's default), WSS4J interceptors for the WS-Security variants.
 */
public final class SoapServer implements RunningServer {
    static final String PATH = "/bench";

    private final Bus bus;
    private final Server server;
    static final int MAX_TEXT_CHARS = 4 << 20;
    static final long MAX_DOCUMENT_CHARS = 8L << 20;

    private final int port;
    private final Map<String, String> facts;

    private SoapServer(Bus bus, Server server, int port, Map<String, String> facts) {
        this.bus = bus;
        this.server = server;
        this.port = port;
        this.facts = facts;
    }

    public static SoapServer start(ServerOptions options) throws Exception {
        SoapPorts.Port binding = SoapPorts.of(options.protocol());
        WsSecurity.Mode mode = WsSecurity.Mode.of(options.protocol());
        Bus bus = BusFactory.newInstance().createBus();
        try {
            // The engine first, so that port 0 (the system's choice) can be read back from its connector.
            JettyHTTPServerEngine engine = bus.getExtension(JettyHTTPServerEngineFactory.class)
                    .createJettyHTTPServerEngine(options.host(), options.port(), "http");
            JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
            factory.setBus(bus);
            factory.setServiceClass(Bench.class);
            // The generated port type answered by the contract's reference behaviour through the operation table.
            factory.setServiceBean(OperationProxy.serve(Bench.class, InjectedSpin.served(), SoapMapping.INSTANCE));
            factory.setWsdlLocation(SoapPorts.wsdlOf(options.idl(), binding));
            factory.setServiceName(SoapPorts.SERVICE);
            factory.setEndpointName(new QName(SoapPorts.NAMESPACE, binding.portName()));
            factory.setAddress("http://" + SoapPorts.hostForUrl(options.host()) + ":" + options.port() + PATH);
            // Parser limits (idl/CONTRACT.md, "Limits"), against CXF's defaults of 128 Mi characters per text node
            // and none for the document: one 32 MiB call took the 256 MiB heap to OutOfMemoryError. The contract's
            // largest text is the 1 MiB echoBytes vector (1.4 Mi characters in base64).
            factory.getProperties(true).put("org.apache.cxf.stax.maxTextLength", MAX_TEXT_CHARS);
            factory.getProperties(true).put("org.apache.cxf.stax.maxXMLCharacters", MAX_DOCUMENT_CHARS);
            String replayCache = "none";
            if (mode != WsSecurity.Mode.NONE) {
                KeyMaterial keys = KeyMaterial.load(options.secrets());
                factory.getInInterceptors().add(new WSS4JInInterceptor(WsSecurity.serverIn(mode, keys)));
                if (mode.signs()) {
                    factory.getInInterceptors().add(WsSecurity.coverage(mode));
                    factory.getOutInterceptors().add(new WSS4JOutInterceptor(WsSecurity.serverOut(mode, keys)));
                }
                // Replay detection on, named rather than left to the default: nonces (UsernameToken) and
                // Timestamp + signature value (signed messages) are remembered until they expire.
                factory.getProperties(true).put(SecurityConstants.ENABLE_NONCE_CACHE, Boolean.TRUE);
                factory.getProperties(true).put(SecurityConstants.ENABLE_TIMESTAMP_CACHE, Boolean.TRUE);
                // A refusal names its cause (expired, replayed, invalid signature, untrusted certificate)
                // rather than CXF's default generic SecurityError: the suite reports what each server saw.
                factory.getProperties(true).put(SecurityConstants.RETURN_SECURITY_ERROR, Boolean.TRUE);
                replayCache = WSS4JCacheUtil.isEhCacheInstalled() ? "EhCache" : "in-memory";
            }
            Server server = factory.create();
            int port = ((ServerConnector) engine.getConnector()).getLocalPort();
            return new SoapServer(bus, server, port, Map.of("transport", "jetty " + org.eclipse.jetty.util.Jetty.VERSION,
                    "soap", binding.soapVersion(), "replay_cache", replayCache));
        } catch (Exception e) {
            bus.shutdown(false);
            throw e;
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    @Override
    public void stop() {
        server.destroy();
        bus.shutdown(true);
    }
}
