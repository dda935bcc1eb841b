package org.rpcmatrix.hessian;

import com.caucho.hessian.io.SerializerFactory;
import com.caucho.hessian.server.HessianServlet;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import javax.servlet.Servlet;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.mapping.OperationProxy;
import org.rpcmatrix.core.reference.InjectedSpin;
import org.rpcmatrix.httphost.HttpHost;

/**
 * Hessian's HessianServlet (which answers in the version of each request) at {@code /hessian}, or Burlap's
 * skeleton at {@code /burlap}, in the shared embedded Jetty.
 */
final class HessianServer {
    static final String HESSIAN_PATH = "/hessian";
    static final String BURLAP_PATH = "/burlap";

    private HessianServer() {
    }

    static RunningServer start(ServerOptions options) throws Exception {
        return HttpHost.start(options, options.protocol().family(),
                servlets(options.protocol().family(), service(InjectedSpin.served())));
    }

    /** {@link HessianApi} answered by {@code bench} through the operation table, values per {@link HessianMapping}. */
    static HessianApi service(Bench bench) {
        return OperationProxy.serve(HessianApi.class, bench, HessianMapping.INSTANCE);
    }

    static Map<String, Servlet> servlets(String family, HessianApi service) {
        if (Main.BURLAP.equals(family)) {
            return Map.of(BURLAP_PATH, new BenchBurlapServlet(service));
        }
        HessianServlet servlet = new BufferedHessianServlet();
        servlet.setHome(service);
        servlet.setHomeAPI(HessianApi.class);
        servlet.setSerializerFactory(FaultDetails.serializerFactory());
        return Map.of(HESSIAN_PATH, servlet);
    }

    /**
     * HessianServlet with buffered streams ({@link StreamBuffers}): a Hessian 1 call is read, and its reply
     * written, through HessianInput and HessianOutput, which go to the servlet's streams a byte at a time. The
     * reply's bytes are the same; HessianSkeleton closes its output, which flushes them, as before.
     */
    private static final class BufferedHessianServlet extends HessianServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void invoke(InputStream is, OutputStream os, String objectId, SerializerFactory serializerFactory)
                throws Exception {
            StreamBuffers.Out out = StreamBuffers.out(os);
            super.invoke(StreamBuffers.in(is), out, objectId, serializerFactory);
            out.flush();
        }
    }
}
