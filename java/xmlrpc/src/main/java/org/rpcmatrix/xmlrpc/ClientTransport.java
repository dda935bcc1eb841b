package org.rpcmatrix.xmlrpc;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.httpclient.Header;
import org.apache.commons.httpclient.HttpClient;
import org.apache.commons.httpclient.MultiThreadedHttpConnectionManager;
import org.apache.commons.httpclient.params.HostParams;
import org.apache.commons.httpclient.params.HttpConnectionManagerParams;
import org.apache.xmlrpc.client.XmlRpcClient;
import org.apache.xmlrpc.client.XmlRpcClientConfigImpl;
import org.apache.xmlrpc.client.XmlRpcCommonsTransportFactory;
import org.apache.xmlrpc.client.XmlRpcLiteHttpTransportFactory;
import org.apache.xmlrpc.client.XmlRpcSunHttpTransportFactory;
import org.apache.xmlrpc.client.XmlRpcTransportFactory;

/**
 * Apache XML-RPC's three client transports, chosen by the client's {@code --transport sun|commons|lite}
 * (Gredler compared them): Sun's HttpURLConnection (the default), Commons HttpClient 3.1, and the library's own
 * "lite" HTTP/1.0 client.
 */
enum ClientTransport {
    /**
     * HttpURLConnection: keep-alive through the JDK's connection cache; no TCP_NODELAY setting. It counts a
     * request's length itself, so a gzip request needs no fix.
     */
    SUN {
        @Override
        XmlRpcTransportFactory factory(XmlRpcClient client, boolean gzip) {
            return new XmlRpcSunHttpTransportFactory(client);
        }
    },
    /**
     * Commons HttpClient 3.1 with a MultiThreadedHttpConnectionManager, which keeps the connection open from
     * call to call (the transport's default SimpleHttpConnectionManager would too, but is not meant to be
     * shared), TCP_NODELAY on; through the proxy the JDK's proxy properties name for the server, if any.
     */
    COMMONS {
        @Override
        XmlRpcTransportFactory factory(XmlRpcClient client, boolean gzip) {
            MultiThreadedHttpConnectionManager connections = new MultiThreadedHttpConnectionManager();
            HttpConnectionManagerParams params = connections.getParams();
            params.setTcpNoDelay(true);
            params.setStaleCheckingEnabled(false); // a read before every request, which no other client makes
            XmlRpcCommonsTransportFactory factory = gzip ? new GzipRequestTransports.CommonsFactory(client)
                    : new XmlRpcCommonsTransportFactory(client);
            HttpClient http = new HttpClient(connections);
            // HttpClient 3.1 reads no proxy property; its users set the host configuration's proxy. Each call's
            // absolute URL keeps it (HttpClient.executeMethod copies the default host configuration).
            Proxy proxy = proxyOf(((XmlRpcClientConfigImpl) client.getClientConfig()).getServerURL());
            if (proxy.address() instanceof InetSocketAddress address) {
                http.getHostConfiguration().setProxy(address.getHostString(), address.getPort());
                // A connection per call through it: tinyproxy 1.11 closes each client connection after its answer
                // and drops the server's Connection: close, so the next call on a kept one met a closed connection
                // (NoHttpResponseException, then sent again on a new one, every call). HttpClient closes after an
                // answer without a directive when its request asked for close (HttpMethodBase.shouldCloseConnection).
                http.getParams().setParameter(HostParams.DEFAULT_HEADERS, List.of(new Header("Connection", "close")));
            }
            factory.setHttpClient(http);
            return factory;
        }

        /**
         * Shuts the client's connection manager, which closes its connections: they belong to this client alone.
         * Before, a closed client's connections stayed open until its manager was collected (a load of 8 left 9
         * connections open, ss).
         */
        @Override
        void close(XmlRpcTransportFactory factory) {
            HttpClient http = ((XmlRpcCommonsTransportFactory) factory).getHttpClient();
            if (http.getHttpConnectionManager() instanceof MultiThreadedHttpConnectionManager connections) {
                connections.shutdown();
            }
        }
    },
    /**
     * The library's lite transport: HTTP/1.0, a new socket per call that it closes after the answer (it has no
     * keep-alive), no TCP_NODELAY setting.
     */
    LITE {
        @Override
        XmlRpcTransportFactory factory(XmlRpcClient client, boolean gzip) {
            return gzip ? new GzipRequestTransports.LiteFactory(client) : new XmlRpcLiteHttpTransportFactory(client);
        }
    };

    static final String FLAG = "--transport";

    /**
     * The proxy the JDK's default ProxySelector names for {@code server}: http.proxyHost and http.proxyPort, unless
     * http.nonProxyHosts matches the server's host, as HttpURLConnection (the SUN transport) chooses it.
     */
    static Proxy proxyOf(URL server) {
        try {
            return ProxySelector.getDefault().select(server.toURI()).get(0);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI: " + server, e);
        }
    }

    /** {@code gzip}: the transport must send gzip-compressed requests with their true length. */
    abstract XmlRpcTransportFactory factory(XmlRpcClient client, boolean gzip);

    /**
     * Closes what a client's factory of this transport holds. Nothing for SUN, whose connections are in the JDK's
     * process-wide keep-alive cache, not the client's (java/manifest.json), nor for LITE, which closes every
     * connection after its call.
     */
    void close(XmlRpcTransportFactory factory) {
    }

    /** The transport {@code --transport} names in a client's arguments; SUN when absent. */
    static ClientTransport fromArgs(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(FLAG)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(FLAG + " needs a value: sun, commons or lite");
                }
                try {
                    return valueOf(args[i + 1].toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown " + FLAG + " '" + args[i + 1]
                            + "': sun, commons or lite");
                }
            }
        }
        return SUN;
    }

    /** The arguments without {@code --transport X}, for the shared command line parser. */
    static String[] withoutFlag(String[] args) {
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(FLAG)) {
                i++;
            } else {
                rest.add(args[i]);
            }
        }
        return rest.toArray(String[]::new);
    }
}
