package org.rpcmatrix.soap;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.cxf.interceptor.StaxOutInterceptor;
import org.apache.cxf.message.Message;
import org.apache.cxf.phase.AbstractPhaseInterceptor;
import org.apache.cxf.phase.Phase;

/** Keeps a copy of the request bytes as they go on the wire (set before the XML writer is made). */
final class RequestCapture extends AbstractPhaseInterceptor<Message> {
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

    RequestCapture() {
        super(Phase.PRE_STREAM);
        addBefore(StaxOutInterceptor.class.getName());
    }

    @Override
    public void handleMessage(Message message) {
        OutputStream wire = message.getContent(OutputStream.class);
        message.setContent(OutputStream.class, new FilterOutputStream(wire) {
            @Override
            public void write(int b) throws IOException {
                copy.write(b);
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                copy.write(b, off, len);
                out.write(b, off, len);
            }
        });
    }

    byte[] bytes() {
        return copy.toByteArray();
    }
}
