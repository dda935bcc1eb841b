package org.rpcmatrix.hessian;

import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.burlap.server.BurlapSkeleton;
import com.caucho.hessian.io.SerializerFactory;
import com.caucho.services.server.ServiceContext;
import java.io.IOException;
import javax.servlet.ServletConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Caucho's BurlapServlet, whose service() creates its streams with a default SerializerFactory that cannot be
 * replaced: the same skeleton, with the factory that writes faults per the carriage ({@link FaultDetails}), and
 * buffered streams ({@link StreamBuffers}: BurlapInput and BurlapOutput read and write a byte at a time).
 */
final class BenchBurlapServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final transient BurlapSkeleton skeleton;
    private final transient SerializerFactory serializers = FaultDetails.serializerFactory();

    BenchBurlapServlet(HessianApi service) {
        this.skeleton = new BurlapSkeleton(service, HessianApi.class);
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
    }

    @Override
    public void service(ServletRequest request, ServletResponse response) throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse res = (HttpServletResponse) response;
        if (!"POST".equals(req.getMethod())) {
            res.sendError(405, "Burlap requires POST");
            return;
        }
        ServiceContext.begin(req, res, req.getPathInfo(), null);
        try {
            BurlapInput in = new BurlapInput(StreamBuffers.in(req.getInputStream()));
            in.setSerializerFactory(serializers);
            StreamBuffers.Out buffer = StreamBuffers.out(res.getOutputStream());
            BurlapOutput out = new BurlapOutput(buffer);
            out.setSerializerFactory(serializers);
            res.setContentType("text/xml");
            skeleton.invoke(in, out);
            // Not flush(): BurlapServlet leaves the end of the reply to the container, as this does.
            buffer.drain();
        } catch (RuntimeException | IOException e) {
            throw e;
        } catch (Throwable e) {
            throw new ServletException(e);
        } finally {
            ServiceContext.end();
        }
    }
}
