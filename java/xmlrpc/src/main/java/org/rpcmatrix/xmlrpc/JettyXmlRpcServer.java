package org.rpcmatrix.xmlrpc;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.rpcmatrix.core.RunningServer;
import org.rpcmatrix.core.ServerOptions;

/**
 * The XML-RPC server as it is deployed in production: the library's servlet in embedded Jetty 9.4, HTTP/1.1
 * keep-alive, a thread pool, TCP_NODELAY on accepted connections, no request log.
 */
public final class JettyXmlRpcServer implements RunningServer {
    static final String PATH = "/RPC2";
    private static final int MAX_THREADS = 64;
    private static final int IDLE_TIMEOUT_MS = 300_000;
    private static final long STOP_TIMEOUT_MS = 2_000;

    private final Server jetty;
    private final ServerConnector connector;

    private JettyXmlRpcServer(Server jetty, ServerConnector connector) {
        this.jetty = jetty;
        this.connector = connector;
    }

    public static JettyXmlRpcServer start(ServerOptions options) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS);
        threads.setName("xmlrpc");
        Server jetty = new Server(threads);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost(options.host());
        connector.setPort(options.port());
        connector.setAcceptedTcpNoDelay(true);
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder(new BenchXmlRpcServlet());
        servlet.setInitOrder(0); // initialised before "ready", not on the first call
        context.addServlet(servlet, PATH);
        jetty.setHandler(context);
        jetty.setStopTimeout(STOP_TIMEOUT_MS);
        jetty.setStopAtShutdown(false);
        try {
            jetty.start();
        } catch (Exception e) {
            jetty.stop();
            throw e;
        }
        return new JettyXmlRpcServer(jetty, connector);
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        jetty.stop();
    }
}
