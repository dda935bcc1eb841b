package org.rpcmatrix.xmlrpc;

import java.util.Map;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.httphost.HttpHost;

/**
 * The XML-RPC server as it is deployed in production: the library's servlet at {@code /RPC2} in the embedded
 * Jetty every Java HTTP protocol shares (the module httphost: HTTP/1.1 keep-alive, a bounded thread pool,
 * TCP_NODELAY on accepted connections, no request log).
 */
public final class XmlRpcServer implements RunningServer {
    static final String PATH = "/RPC2";

    private final HttpHost host;

    private XmlRpcServer(HttpHost host) {
        this.host = host;
    }

    public static XmlRpcServer start(ServerOptions options) throws Exception {
        return new XmlRpcServer(HttpHost.start(options, "xmlrpc",
                Map.of(PATH, new BenchXmlRpcServlet(options.protocol().gzip()))));
    }

    @Override
    public int port() {
        return host.port();
    }

    @Override
    public Map<String, String> facts() {
        return host.facts();
    }

    @Override
    public void stop() throws Exception {
        host.stop();
    }
}
