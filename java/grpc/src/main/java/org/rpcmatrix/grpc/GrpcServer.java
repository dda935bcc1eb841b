package org.rpcmatrix.grpc;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.rpcmatrix.core.ReferenceBench;
import org.rpcmatrix.core.RunningServer;
import org.rpcmatrix.core.ServerOptions;

/**
 * The gRPC server: grpc-java on Netty (epoll when the bundled native library loads, NIO otherwise),
 * calls run on a fixed pool of application threads rather than grpc-java's default unbounded cached
 * pool, so a burst cannot create a thread per call. Everything else keeps grpc-java's defaults.
 */
final class GrpcServer implements RunningServer {
    private static final int APPLICATION_THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    private final Server server;
    private final ExecutorService executor;

    private GrpcServer(Server server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static RunningServer start(ServerOptions options) throws Exception {
        ServerCredentials credentials = options.tls() ? tlsCredentials(options) : InsecureServerCredentials.create();
        InetSocketAddress address =
                new InetSocketAddress(InetAddress.getByName(options.host()), options.port());
        ExecutorService executor = Executors.newFixedThreadPool(APPLICATION_THREADS, daemonThreads());
        Server server = NettyServerBuilder.forAddress(address, credentials)
                .executor(executor)
                .withChildOption(ChannelOption.TCP_NODELAY, true)
                .addService(new BenchService(new ReferenceBench()))
                .build();
        try {
            server.start();
        } catch (Exception e) {
            executor.shutdownNow();
            throw e;
        }
        return new GrpcServer(server, executor);
    }

    private static ServerCredentials tlsCredentials(ServerOptions options) throws Exception {
        TlsFiles files = TlsFiles.in(options.secrets());
        return TlsServerCredentials.create(files.serverCertificate(), files.serverKey());
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "grpc-app-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public int port() {
        return server.getPort();
    }

    /** Stops accepting, lets calls in flight finish for a moment, then cancels the rest. */
    @Override
    public void stop() throws InterruptedException {
        server.shutdown();
        if (!server.awaitTermination(2, TimeUnit.SECONDS)) {
            server.shutdownNow();
            server.awaitTermination(1, TimeUnit.SECONDS);
        }
        executor.shutdownNow();
    }
}
