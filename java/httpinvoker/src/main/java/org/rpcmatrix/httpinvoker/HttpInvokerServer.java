package org.rpcmatrix.httpinvoker;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.util.Map;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.ArrayBudget;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.mapping.OperationProxy;
import org.rpcmatrix.core.reference.InjectedSpin;
import org.rpcmatrix.httphost.HttpHost;
import org.rpcmatrix.javaserial.JavaSerialMapping;
import org.springframework.remoting.httpinvoker.HttpInvokerServiceExporter;

/**
 * Spring's HttpInvokerServiceExporter at {@code /httpinvoker} in the shared embedded Jetty, called from a plain
 * servlet (no Spring web context: the exporter is an HttpRequestHandler). It deserializes each request through
 * an allow-list ({@link #REQUEST_FILTER}): Java serialization of an arbitrary class is remote code execution
 * waiting for a gadget chain.
 */
// Spring deprecated its remoting in 5.3 (it is Java serialization); the suite measures it as deployed.
@SuppressWarnings("deprecation")
final class HttpInvokerServer {
    static final String PATH = "/httpinvoker";

    /**
     * What a call of {@link HttpInvokerApi} may contain: the invocation, its parameter types and the boxed
     * arguments (primitive arrays are always allowed by the JDK's pattern filters); everything else is refused.
     */
    static final ObjectInputFilter REQUEST_FILTER = ObjectInputFilter.merge(HttpInvokerServer::arrayBudget,
            ObjectInputFilter.Config.createFilter("maxdepth=10;maxrefs=10000;maxbytes=67108864;"
                    + "org.springframework.remoting.support.RemoteInvocation;"
                    + "java.lang.Object;java.lang.Class;java.lang.String;java.lang.Number;java.lang.Boolean;"
                    + "java.lang.Byte;java.lang.Short;java.lang.Integer;java.lang.Long;java.lang.Float;"
                    + "java.lang.Double;!*"));

    /**
     * An array is refused before it is allocated when its declared length would take more than the contract's
     * budget (ArrayBudget): the pattern's maxarray counts elements, and a 27-byte body declaring long[16 Mi] cost
     * 128 MiB. Anything else is left to the pattern.
     */
    private static ObjectInputFilter.Status arrayBudget(ObjectInputFilter.FilterInfo info) {
        return ArrayBudget.overBudget(info) ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED;
    }

    private HttpInvokerServer() {
    }

    static RunningServer start(ServerOptions options) throws Exception {
        return HttpHost.start(options, "httpinvoker",
                Map.of(PATH, servlet(service(InjectedSpin.served()))));
    }

    /**
     * {@link HttpInvokerApi} answered by {@code bench} through the operation table, values per
     * {@link JavaSerialMapping}.
     */
    static HttpInvokerApi service(Bench bench) {
        return OperationProxy.serve(HttpInvokerApi.class, bench, JavaSerialMapping.INSTANCE);
    }

    static HttpServlet servlet(HttpInvokerApi service) {
        HttpInvokerServiceExporter exporter = new FilteringExporter();
        exporter.setService(service);
        exporter.setServiceInterface(HttpInvokerApi.class);
        exporter.afterPropertiesSet();
        return new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response)
                    throws ServletException, IOException {
                exporter.handleRequest(request, response);
            }
        };
    }

    /** The exporter with the allow-list set on the stream it reads each invocation from. */
    static final class FilteringExporter extends HttpInvokerServiceExporter {
        @Override
        protected ObjectInputStream createObjectInputStream(InputStream is) throws IOException {
            ObjectInputStream in = super.createObjectInputStream(is);
            in.setObjectInputFilter(REQUEST_FILTER);
            return in;
        }
    }
}
