package org.rpcmatrix.rawtcp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationClient;

/** The raw TCP client: one persistent connection, sequential calls. Not thread-safe. */
public final class RawTcpClient extends OperationClient {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final RawTcpCodec.Writer request = new RawTcpCodec.Writer();

    private RawTcpClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
        this.out = new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES);
    }

    public static RawTcpClient connect(ClientOptions options) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(options.host(), options.port()));
            return new RawTcpClient(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends one request and returns the decoded result (null for void); raises the server's errors. */
    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        request.reset();
        request.i16(op.id());
        for (int i = 0; i < args.length; i++) {
            request.value(op.paramTypes().get(i), args[i]);
        }
        request.writeTo(out);
        byte[] body = RawTcpCodec.readFrame(in);
        if (body == null) {
            throw new EOFException("server closed the connection");
        }
        RawTcpCodec.Reader response = new RawTcpCodec.Reader(body);
        int status = response.u8();
        switch (status) {
            case RawTcpCodec.STATUS_OK: {
                Object value = response.value(op.returnType());
                response.expectEnd();
                return value;
            }
            case RawTcpCodec.STATUS_BENCH_ERROR: {
                int code = response.i32();
                String message = response.string();
                response.expectEnd();
                throw new BenchError(code, message);
            }
            case RawTcpCodec.STATUS_OTHER_ERROR:
                throw new IOException("server error: " + response.string());
            default:
                throw new IOException("unknown response status " + status);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
