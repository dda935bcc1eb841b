package org.rpcmatrix.httphost;

import java.util.EnumSet;
import java.util.Map;
import javax.servlet.DispatcherType;
import javax.servlet.Servlet;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;

/**
 * The one embedded HTTP server of the Java HTTP protocols (XML-RPC, Hessian, Burlap, JSON-RPC, HttpInvoker),
 * configured alike for all: Jetty 9.4, HTTP/1.1 keep-alive, a bounded thread pool, TCP_NODELAY on accepted
 * connections, no request log, error pages without stack traces, no request body over the contract's 64 MiB
 * ({@link BodyLimit}: 413), bound to the given address exactly (port 0: the system chooses).
 */
public final class HttpHost implements RunningServer {
    /** Jetty's QueuedThreadPool bound: selector and acceptor threads come out of it too. */
    public static final int MAX_THREADS = 64;
    private static final int IDLE_TIMEOUT_MS = 300_000;
    private static final long STOP_TIMEOUT_MS = 2_000;

    private final Server jetty;
    private final ServerConnector connector;

    private HttpHost(Server jetty, ServerConnector connector) {
        this.jetty = jetty;
        this.connector = connector;
    }

    /**
     * Serves each servlet at its path (a servlet mapping such as {@code /RPC2}), initialised before this returns
     * so that the first call does not pay for it; returns once the listener accepts connections.
     */
    public static HttpHost start(ServerOptions options, String threadName, Map<String, ? extends Servlet> servlets)
            throws Exception {
        return start(options.host(), options.port(), threadName, servlets);
    }

    /** As {@link #start(ServerOptions, String, Map)}, for tests: {@code host} and {@code port} given directly. */
    public static HttpHost start(String host, int port, String threadName, Map<String, ? extends Servlet> servlets)
            throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS);
        threads.setName(threadName);
        Server jetty = new Server(threads);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        // Jetty 9.4's default too, named so that it cannot change under us.
        connector.setAcceptedTcpNoDelay(true);
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        // No request body over the contract's 64 MiB: refused (413) before it is read when declared so, cut where
        // it reaches the limit when chunked (BodyLimit).
        context.addFilter(new FilterHolder(new BodyLimit()), "/*", EnumSet.of(DispatcherType.REQUEST));
        servlets.forEach((path, servlet) -> {
            ServletHolder holder = new ServletHolder(servlet);
            holder.setInitOrder(0); // initialised before "ready", not on the first call
            context.addServlet(holder, path);
        });
        // Jetty's error pages show the stack of whatever a servlet threw (30 to 64 frames naming every library
        // and version): a caller gets the status and the message only.
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowServlet(false);
        context.setErrorHandler(errors);
        jetty.setErrorHandler(errors);
        jetty.setHandler(context);
        jetty.setStopTimeout(STOP_TIMEOUT_MS);
        jetty.setStopAtShutdown(false);
        try {
            jetty.start();
        } catch (Exception e) {
            jetty.stop();
            throw e;
        }
        return new HttpHost(jetty, connector);
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("http_server", "jetty " + Server.getVersion());
    }

    @Override
    public void stop() throws Exception {
        jetty.stop();
    }

    /** {@code http://host:port/path}, bracketing an IPv6 address. */
    public static String url(String host, int port, String path) {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + h + ":" + port + path;
    }
}
