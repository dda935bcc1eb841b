package org.rpcmatrix.thrift;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.server.ServerContext;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TServerEventHandler;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFastFramedTransport;
import org.apache.thrift.transport.layered.TLayeredTransport;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.reference.InjectedSpin;

/**
 * The Thrift server: TThreadPoolServer, Thrift's blocking server with a pool thread per connection, on the
 * framed transport. Clients here hold one persistent connection each and call sequentially, the case this
 * server is made for. TThreadedSelectorServer (non-blocking, for many connections) hands every call from a
 * selector thread to a worker and back, which measured 50-80 us per ping on loopback against 19 us here;
 * running its calls on the selector threads instead would let one long call stall other connections.
 * TCP_NODELAY is set on every accepted socket by TSocket.
 */
final class ThriftServer implements RunningServer {
    private static final int MIN_THREADS = 4;
    /** At most this many connections at once; the pool refuses (closes) the next one, with a warning. */
    private static final int MAX_THREADS = 256;
    private static final int STOP_SECONDS = 1;
    /**
     * The framed transport allocates a frame's declared size before reading it: at most this (idl/CONTRACT.md,
     * "Limits"), against libthrift's default of 16,384,000 bytes; a longer frame closes the connection. The
     * contract's largest message, the 1 MiB echoBytes vector, is about a quarter of it.
     */
    static final int MAX_FRAME_BYTES = 4 << 20;
    /** A frame buffer's first size (TFastFramedTransport's default); it grows to the largest frame read. */
    static final int INITIAL_FRAME_BUFFER = 1024;

    private final TServer server;
    private final Thread serving;
    private final int port;
    private final Set<TSocket> connections;

    private ThriftServer(TServer server, Thread serving, int port, Set<TSocket> connections) {
        this.server = server;
        this.serving = serving;
        this.port = port;
        this.connections = connections;
    }

    static RunningServer start(ServerOptions options, Wire wire) throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(options.host()), options.port());
        TServerSocket socket = new TServerSocket(address); // binds here, so the port is known
        TThreadPoolServer.Args args = new TThreadPoolServer.Args(socket)
                .minWorkerThreads(MIN_THREADS)
                .maxWorkerThreads(MAX_THREADS)
                .stopTimeoutVal(STOP_SECONDS)
                .stopTimeoutUnit(TimeUnit.SECONDS);
        args.processor(new OperationProcessor(InjectedSpin.served()));
        // TFramedTransport's wire format with buffers kept per connection, growing up to the largest frame
        // (libthrift's cross-test server offers it as "fastframed"); TFramedTransport allocated each frame anew.
        args.transportFactory(new TFastFramedTransport.Factory(INITIAL_FRAME_BUFFER, MAX_FRAME_BYTES));
        args.protocolFactory(wire.protocolFactory());
        TServer server = new TThreadPoolServer(args);
        Set<TSocket> connections = ConcurrentHashMap.newKeySet();
        server.setServerEventHandler(new ConnectionTracker(connections));
        Thread serving = new Thread(server::serve, "thrift-accept");
        serving.start();
        while (!server.isServing()) {
            if (!serving.isAlive()) {
                throw new IllegalStateException("the Thrift server stopped while starting");
            }
            Thread.sleep(1);
        }
        return new ThriftServer(server, serving, socket.getServerSocket().getLocalPort(), connections);
    }

    @Override
    public int port() {
        return port;
    }

    /**
     * Closes the listener, then ends the input of every open connection: each connection's thread reads the
     * end of the stream, as when a client leaves, and closes its socket; none is left blocked in a read.
     */
    @Override
    public void stop() throws InterruptedException {
        server.stop();
        for (TSocket connection : connections) {
            try {
                connection.getSocket().shutdownInput();
            } catch (IOException e) {
                // already closed by its client
            }
        }
        serving.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS + 1));
    }

    /** Keeps the open connections, so that stop() can close them (TThreadPoolServer does not). */
    private static final class ConnectionTracker implements TServerEventHandler {
        private final Set<TSocket> connections;

        ConnectionTracker(Set<TSocket> connections) {
            this.connections = connections;
        }

        @Override
        public void preServe() {
        }

        @Override
        public ServerContext createContext(TProtocol input, TProtocol output) {
            // The input is the framed transport made by the transport factory over the accepted socket.
            TSocket socket = (TSocket) ((TLayeredTransport) input.getTransport()).getInnerTransport();
            connections.add(socket);
            return new Connection(socket);
        }

        @Override
        public void deleteContext(ServerContext context, TProtocol input, TProtocol output) {
            connections.remove(((Connection) context).socket());
        }

        @Override
        public void processContext(ServerContext context, TTransport input, TTransport output) {
        }
    }

    private record Connection(TSocket socket) implements ServerContext {
        @Override
        public <T> T unwrap(Class<T> iface) {
            return iface.cast(this);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(this);
        }
    }
}
