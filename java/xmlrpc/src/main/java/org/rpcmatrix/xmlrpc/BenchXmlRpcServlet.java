package org.rpcmatrix.xmlrpc;

import javax.servlet.ServletConfig;
import org.apache.xmlrpc.XmlRpcException;
import org.apache.xmlrpc.server.XmlRpcErrorLogger;
import org.apache.xmlrpc.server.XmlRpcHandlerMapping;
import org.apache.xmlrpc.server.XmlRpcServerConfigImpl;
import org.apache.xmlrpc.webserver.XmlRpcServlet;
import org.apache.xmlrpc.webserver.XmlRpcServletServer;
import org.rpcmatrix.core.reference.InjectedSpin;

/**
 * The library's servlet, serving the contract in strict XML-RPC. Its vendor extensions stay off, except in the
 * gzip variant: the library reads a gzip request and gzips its answer only with them on
 * ({@code XmlRpcStreamServer.getInputStream}, {@code XmlRpcHttpServer.getOutputStream}); the handlers still
 * answer in standard XML-RPC types only (XmlRpcMapping), and read only those ({@link ContractTypeFactory}); no
 * document type declaration is read ({@link XmlParsers}); failures are answered with the conventional fault codes
 * ({@link FaultCodeServer}, {@link BenchHandlerMapping}).
 */
final class BenchXmlRpcServlet extends XmlRpcServlet {
    private static final long serialVersionUID = 1L;

    private final boolean gzip;

    BenchXmlRpcServlet(boolean gzip) {
        this.gzip = gzip;
    }

    @Override
    protected XmlRpcServletServer newXmlRpcServer(ServletConfig config) throws XmlRpcException {
        XmlRpcServletServer server = new FaultCodeServer();
        XmlRpcServerConfigImpl serverConfig = (XmlRpcServerConfigImpl) server.getConfig();
        serverConfig.setEnabledForExtensions(gzip);
        // Extensions on (the gzip variant) must not mean objects built from the caller's bytes.
        server.setTypeFactory(new ContractTypeFactory(server));
        XmlParsers.refuseDoctypes();
        serverConfig.setEnabledForExceptions(false);
        // Buffer each response to send a Content-Length: the connection stays open for the next call.
        serverConfig.setContentLengthOptional(false);
        server.setXMLWriterFactory(new CarriageReturnSafeXmlWriterFactory());
        server.setErrorLogger(new UnexpectedErrorLogger());
        return server;
    }

    @Override
    protected XmlRpcHandlerMapping newXmlRpcHandlerMapping() {
        return new BenchHandlerMapping(InjectedSpin.served());
    }

    /**
     * The library logs every fault with its stack trace. Faults are answers here (BenchError, a bad argument):
     * only what the server did not mean to raise is worth a line on stderr.
     */
    private static final class UnexpectedErrorLogger extends XmlRpcErrorLogger {
        @Override
        public void log(String message, Throwable error) {
            if (!(error instanceof XmlRpcException) || error.getCause() != null) {
                super.log(message, error);
            }
        }
    }
}
