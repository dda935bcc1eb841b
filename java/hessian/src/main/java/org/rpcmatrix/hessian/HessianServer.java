package org.rpcmatrix.hessian;

import com.caucho.hessian.io.SerializerFactory;
import com.caucho.hessian.server.HessianServlet;
import java.io.FilterOutputStream;
import java.io.IOException;
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
     * reply's bytes are the same. HessianSkeleton closes its output even when the call could not be read, and
     * Hessian2Output's close flushes the stream under it: on the servlet's stream that committed an empty HTTP 200
     * before the failure reached the container (an invalid document, or a 10,000-deep nesting, got no answer at
     * all). Here the skeleton's flush and close only hand the bytes to the servlet's stream, so a call that could
     * not be read leaves nothing committed and the container answers 500 with the reason; a reply goes out when
     * the servlet returns, with its Content-Length when it fits in Jetty's buffer.
     */
    private static final class BufferedHessianServlet extends HessianServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void invoke(InputStream is, OutputStream os, String objectId, SerializerFactory serializerFactory)
                throws Exception {
            StreamBuffers.Out out = StreamBuffers.out(os);
            super.invoke(StreamBuffers.in(is), new Uncommitting(out), objectId, serializerFactory);
            out.drain();
        }
    }

    /** The skeleton's view of the reply's stream: flush and close hand the buffered bytes on, nothing more. */
    private static final class Uncommitting extends FilterOutputStream {
        private final StreamBuffers.Out out;

        Uncommitting(StreamBuffers.Out out) {
            super(out);
            this.out = out;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.drain();
        }

        @Override
        public void close() throws IOException {
            out.drain();
        }
    }
}
