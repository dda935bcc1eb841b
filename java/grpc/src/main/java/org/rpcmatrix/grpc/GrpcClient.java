package org.rpcmatrix.grpc;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.stub.ClientCalls;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.grpc.proto.BenchGrpc;
import org.rpcmatrix.grpc.proto.Doubles;
import org.rpcmatrix.grpc.proto.RandomDoublesStreamRequest;

/**
 * The gRPC client adapter: one long-lived channel (one HTTP/2 connection, grpc-java's keep-alive
 * defaults, retries off); each unary call is a blocking call (as the generated blocking stub makes it,
 * its answer read on the calling thread) built from the operation table.
 */
final class GrpcClient extends OperationClient {
    private final ManagedChannel channel;
    private final EventLoopGroup group;
    private final Map<String, String> facts;

    GrpcClient(ManagedChannel channel) {
        this(channel, null, Map.of());
    }

    private GrpcClient(ManagedChannel channel, EventLoopGroup group, Map<String, String> facts) {
        this.channel = channel;
        this.group = group;
        this.facts = facts;
    }

    /**
     * One channel on the transport {@link NettyTransport#pick()} chose, with one event loop thread (a channel
     * uses one event loop whatever the group's size); TLS when the registry's variant says so.
     */
    static BenchClient connect(ClientOptions options) throws Exception {
        NettyTransport transport = NettyTransport.pick();
        Map<String, String> facts = new LinkedHashMap<>(transport.facts());
        SslContext tls = null;
        if (Security.tls(options.protocol())) {
            tls = Security.client(TlsFiles.forClient(options.secrets()));
            facts.putAll(Security.facts(tls));
        }
        EventLoopGroup group = transport.group(1);
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(options.host(), options.port())
                .channelType(transport.clientChannel())
                .eventLoopGroup(group)
                .withOption(ChannelOption.TCP_NODELAY, true)
                // A fixed window, as grpc-java's benchmarks set it: BDP auto-tuning's pings follow timing,
                // so the bytes per call would too (java/manifest.json).
                .flowControlWindow(NettyChannelBuilder.DEFAULT_FLOW_CONTROL_WINDOW)
                // No retry buffer: through it every request message is flushed before the half-close, and
                // whether END_STREAM then rides the message's frame or follows in a frame of its own was a
                // race between threads, so the bytes per call followed timing (java/manifest.json). The
                // contract's calls set no retry policy.
                .disableRetry();
        if (tls != null) {
            builder.sslContext(tls).overrideAuthority(options.tlsServerName());
        } else {
            builder.usePlaintext();
        }
        return new GrpcClient(builder.build(), group, Collections.unmodifiableMap(facts));
    }

    @Override
    public Map<String, String> facts() {
        return facts;
    }

    /**
     * A ManagedChannel is thread-safe and multiplexes concurrent calls as HTTP/2 streams of its one connection
     * (grpc-java's own load client, LoadClient, runs its outstanding calls over a few channels this way).
     */
    @Override
    public boolean sharesConnection() {
        return true;
    }

    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        GrpcOperation<?, ?> mapping = GrpcOperations.UNARY.get(op);
        if (mapping == null) {
            throw new IllegalArgumentException(op.contractName() + " is not a unary call");
        }
        return unary(mapping, args);
    }

    /** Makes one call, turning a failed status back into the contract's BenchError where it is one. */
    private <Q, R> Object unary(GrpcOperation<Q, R> mapping, Object[] args) throws Exception {
        Q request = mapping.request().apply(args);
        R response;
        try {
            response = ClientCalls.blockingUnaryCall(channel, mapping.method(), CallOptions.DEFAULT, request);
        } catch (StatusRuntimeException e) {
            throw BenchErrorStatus.fromStatus(e);
        }
        return mapping.result().apply(response);
    }

    /** The chunks as the server streamed them, in order; the caller concatenates them. */
    @Override
    public List<double[]> randomDoublesStream(int count, long seed, int chunk) throws Exception {
        RandomDoublesStreamRequest request = RandomDoublesStreamRequest.newBuilder()
                .setCount(count).setSeed(seed).setChunk(chunk).build();
        try {
            List<double[]> chunks = new ArrayList<>();
            Iterator<Doubles> stream = ClientCalls.blockingServerStreamingCall(channel,
                    BenchGrpc.getRandomDoublesStreamMethod(), CallOptions.DEFAULT, request);
            while (stream.hasNext()) {
                chunks.add(GrpcMapping.fromWire(stream.next()));
            }
            return chunks;
        } catch (StatusRuntimeException e) {
            throw BenchErrorStatus.fromStatus(e);
        }
    }

    @Override
    public void close() {
        channel.shutdown();
        try {
            if (!channel.awaitTermination(2, TimeUnit.SECONDS)) {
                channel.shutdownNow();
            }
        } catch (InterruptedException e) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
        if (group != null) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }
}
