package org.rpcmatrix.rawtcp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.reference.InjectedSpin;

/** The raw TCP server: one thread per connection, calls answered in order, one flush per response frame. */
public final class RawTcpServer implements RunningServer {
    private static final int BUFFER_BYTES = 64 * 1024;
    private static final int BACKLOG = 128;

    private final Bench bench = InjectedSpin.served();
    private final ServerSocket listener;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean stopping;

    private RawTcpServer(ServerSocket listener) {
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "rawtcp-acceptor");
    }

    /** Binds {@code host:port} (port 0: the system chooses) and starts accepting. */
    public static RawTcpServer start(ServerOptions options) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.bind(new InetSocketAddress(InetAddress.getByName(options.host()), options.port()), BACKLOG);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        RawTcpServer server = new RawTcpServer(listener);
        server.acceptor.start();
        return server;
    }

    @Override
    public int port() {
        return listener.getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        stopping = true;
        listener.close();
        for (Socket connection : connections) {
            connection.close();
        }
        acceptor.join(2_000);
    }

    private void acceptLoop() {
        while (!stopping) {
            try {
                Socket connection = listener.accept();
                connection.setTcpNoDelay(true);
                connections.add(connection);
                Thread worker = new Thread(() -> serve(connection), "rawtcp-" + connection.getPort());
                worker.setDaemon(true);
                worker.start();
            } catch (IOException e) {
                if (!stopping) {
                    System.err.println("rawtcp: accept failed: " + e);
                }
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(connection.getInputStream(), BUFFER_BYTES));
            OutputStream out = new BufferedOutputStream(connection.getOutputStream(), BUFFER_BYTES);
            RawTcpCodec.Writer response = new RawTcpCodec.Writer();
            byte[] request;
            while ((request = RawTcpCodec.readFrame(in)) != null) {
                response.reset();
                answer(request, response);
                response.writeTo(out);
            }
        } catch (SocketException e) {
            // the client went away, or the server is stopping
        } catch (IOException e) {
            if (!stopping) {
                System.err.println("rawtcp: closing a connection: " + e.getMessage());
            }
        } finally {
            connections.remove(connection);
        }
    }

    /** Decodes one request, calls the contract and encodes the response (status, then value or error). */
    void answer(byte[] request, RawTcpCodec.Writer response) {
        Object result;
        Operation op;
        try {
            RawTcpCodec.Reader reader = new RawTcpCodec.Reader(request);
            int id = reader.u16();
            op = Operation.byId(id);
            if (op == null || op == Operation.RANDOM_DOUBLES_STREAM) {
                throw new IllegalArgumentException("unknown operation " + id);
            }
            Object[] args = new Object[op.paramTypes().size()];
            for (int i = 0; i < args.length; i++) {
                args[i] = reader.value(op.paramTypes().get(i));
            }
            reader.expectEnd();
            result = op.invoke(bench, args);
        } catch (BenchError e) {
            response.u8(RawTcpCodec.STATUS_BENCH_ERROR);
            response.i32(e.code());
            response.string(e.getMessage());
            return;
        } catch (Exception e) {
            response.u8(RawTcpCodec.STATUS_OTHER_ERROR);
            response.string(String.valueOf(e.getMessage()));
            return;
        }
        response.u8(RawTcpCodec.STATUS_OK);
        response.value(op.returnType(), result);
    }
}
