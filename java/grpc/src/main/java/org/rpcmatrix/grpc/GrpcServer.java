package org.rpcmatrix.grpc;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.reference.InjectedSpin;

/**
 * The gRPC server: grpc-java on Netty (epoll when the bundled native library loads, NIO otherwise).
 * By default calls run on the Netty event loop that read them ({@code directExecutor()}), as grpc-java's own
 * benchmark server does for unary ping-pong: no hand-off to another thread per call. {@code --executor pool}
 * runs them on a pool of application threads instead (the choice of servers whose handlers may block).
 * Everything else keeps grpc-java's defaults.
 */
final class GrpcServer implements RunningServer {
    /** The implementation option choosing where calls run: {@code direct} (default) or {@code pool}. */
    static final String EXECUTOR_FLAG = "--executor";
    static final Set<String> FLAGS = Set.of(EXECUTOR_FLAG);
    private static final int POOL_THREADS = Runtime.getRuntime().availableProcessors();

    private final Server server;
    private final ExecutorService pool;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Map<String, String> facts;

    private GrpcServer(Server server, ExecutorService pool, EventLoopGroup boss, EventLoopGroup workers,
            Map<String, String> facts) {
        this.server = server;
        this.pool = pool;
        this.boss = boss;
        this.workers = workers;
        this.facts = facts;
    }

    static RunningServer start(ServerOptions options) throws Exception {
        String executor = options.implementation(EXECUTOR_FLAG, "direct");
        if (!executor.equals("direct") && !executor.equals("pool")) {
            throw new IllegalArgumentException(EXECUTOR_FLAG + " must be direct or pool, not " + executor);
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(options.host()), options.port());
        NettyTransport transport = NettyTransport.pick();
        Map<String, String> facts = new LinkedHashMap<>(transport.facts());
        EventLoopGroup boss = transport.group(1);
        EventLoopGroup workers = transport.group(0);
        NettyServerBuilder builder = NettyServerBuilder.forAddress(address)
                .channelType(transport.serverChannel())
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .withChildOption(ChannelOption.TCP_NODELAY, true)
                // A fixed window, as grpc-java's benchmarks set it: BDP auto-tuning's pings follow timing,
                // so the bytes per call would too (java/manifest.json).
                .flowControlWindow(NettyServerBuilder.DEFAULT_FLOW_CONTROL_WINDOW)
                .addService(new BenchService(InjectedSpin.served()));
        if (Security.tls(options.protocol())) {
            SslContext context = Security.server(TlsFiles.forServer(options.secrets()));
            builder.sslContext(context);
            facts.putAll(Security.facts(context));
        }
        ExecutorService pool = null;
        if (executor.equals("pool")) {
            // As grpc-java's own benchmark servers (AsyncServer, LoadServer) run a non-direct executor: a
            // ForkJoinPool of one thread per CPU in async (FIFO) mode.
            pool = new ForkJoinPool(POOL_THREADS, daemonThreads(), null, true);
            builder.executor(pool);
            facts.put("executor", "ForkJoinPool of " + POOL_THREADS + " threads, async mode");
        } else {
            builder.directExecutor();
            facts.put("executor", "direct (on the event loop)");
        }
        Server server = builder.build();
        try {
            server.start();
        } catch (Exception e) {
            if (pool != null) {
                pool.shutdownNow();
            }
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return new GrpcServer(server, pool, boss, workers, Collections.unmodifiableMap(facts));
    }

    private static ForkJoinPool.ForkJoinWorkerThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return forkJoinPool -> {
            ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(forkJoinPool);
            thread.setName("grpc-app-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public int port() {
        return server.getPort();
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    /** Stops accepting, lets calls in flight finish for a moment, then cancels the rest. */
    @Override
    public void stop() throws InterruptedException {
        server.shutdown();
        if (!server.awaitTermination(2, TimeUnit.SECONDS)) {
            server.shutdownNow();
            server.awaitTermination(1, TimeUnit.SECONDS);
        }
        if (pool != null) {
            pool.shutdownNow();
        }
        boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }
}
