package org.rpcmatrix.grpc;

import com.google.protobuf.ByteString;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;
import org.rpcmatrix.grpc.proto.BenchGrpc;
import org.rpcmatrix.grpc.proto.BoolValue;
import org.rpcmatrix.grpc.proto.BytesValue;
import org.rpcmatrix.grpc.proto.Doubles;
import org.rpcmatrix.grpc.proto.Empty;
import org.rpcmatrix.grpc.proto.FailRequest;
import org.rpcmatrix.grpc.proto.Float32Value;
import org.rpcmatrix.grpc.proto.Float64Value;
import org.rpcmatrix.grpc.proto.GetItemsRequest;
import org.rpcmatrix.grpc.proto.GetRecordRequest;
import org.rpcmatrix.grpc.proto.Int16Value;
import org.rpcmatrix.grpc.proto.Int32Value;
import org.rpcmatrix.grpc.proto.Int64Value;
import org.rpcmatrix.grpc.proto.Int8Value;
import org.rpcmatrix.grpc.proto.IsPrimeRequest;
import org.rpcmatrix.grpc.proto.RandomDoublesRequest;
import org.rpcmatrix.grpc.proto.RandomDoublesStreamRequest;
import org.rpcmatrix.grpc.proto.SearchBooksRequest;
import org.rpcmatrix.grpc.proto.StringValue;

/**
 * The gRPC client adapter: one long-lived channel (one HTTP/2 connection, grpc-java's keep-alive
 * defaults) and a blocking stub, whose answers are read on the calling thread.
 */
final class GrpcClient implements BenchClient {
    private static final Empty EMPTY = Empty.getDefaultInstance();

    private final ManagedChannel channel;
    private final BenchGrpc.BenchBlockingStub stub;

    GrpcClient(ManagedChannel channel) {
        this.channel = channel;
        this.stub = BenchGrpc.newBlockingStub(channel);
    }

    static BenchClient connect(ClientOptions options) throws Exception {
        NettyChannelBuilder builder;
        if (options.tls()) {
            TlsFiles files = TlsFiles.in(options.secrets());
            ChannelCredentials credentials =
                    TlsChannelCredentials.newBuilder().trustManager(files.caCertificate()).build();
            builder = NettyChannelBuilder.forAddress(options.host(), options.port(), credentials)
                    .overrideAuthority(TlsFiles.SERVER_NAME);
        } else {
            builder = NettyChannelBuilder.forAddress(options.host(), options.port(),
                    InsecureChannelCredentials.create());
        }
        return new GrpcClient(builder.withOption(ChannelOption.TCP_NODELAY, true).build());
    }

    @FunctionalInterface
    private interface Call<T> {
        T run();
    }

    /** Makes one call, turning a failed status back into the contract's BenchError where it is one. */
    private static <T> T call(Call<T> call) throws Exception {
        try {
            return call.run();
        } catch (StatusRuntimeException e) {
            throw BenchErrorStatus.fromStatus(e);
        }
    }

    @Override
    public void ping() throws Exception {
        call(() -> stub.ping(EMPTY));
    }

    @Override
    public boolean echoBool(boolean value) throws Exception {
        return call(() -> stub.echoBool(BoolValue.newBuilder().setValue(value).build())).getValue();
    }

    @Override
    public byte echoInt8(byte value) throws Exception {
        int answer = call(() -> stub.echoInt8(Int8Value.newBuilder().setValue(value).build())).getValue();
        return ProtoMapping.int8FromWire(answer);
    }

    @Override
    public short echoInt16(short value) throws Exception {
        int answer = call(() -> stub.echoInt16(Int16Value.newBuilder().setValue(value).build())).getValue();
        return ProtoMapping.int16FromWire(answer);
    }

    @Override
    public int echoInt32(int value) throws Exception {
        return call(() -> stub.echoInt32(Int32Value.newBuilder().setValue(value).build())).getValue();
    }

    @Override
    public long echoInt64(long value) throws Exception {
        return call(() -> stub.echoInt64(Int64Value.newBuilder().setValue(value).build())).getValue();
    }

    @Override
    public float echoFloat32(float value) throws Exception {
        return call(() -> stub.echoFloat32(Float32Value.newBuilder().setValue(value).build())).getValue();
    }

    @Override
    public double echoFloat64(double value) throws Exception {
        return call(() -> stub.echoFloat64(Float64Value.newBuilder().setValue(value).build())).getValue();
    }

    @Override
    public String echoString(String value) throws Exception {
        return call(() -> stub.echoString(StringValue.newBuilder().setValue(value).build())).getValue();
    }

    @Override
    public byte[] echoBytes(byte[] value) throws Exception {
        BytesValue request = BytesValue.newBuilder().setValue(ByteString.copyFrom(value)).build();
        return call(() -> stub.echoBytes(request)).getValue().toByteArray();
    }

    @Override
    public boolean isPrime(int n) throws Exception {
        return call(() -> stub.isPrime(IsPrimeRequest.newBuilder().setN(n).build())).getValue();
    }

    @Override
    public double average(double[] values) throws Exception {
        Doubles request = ProtoMapping.toWire(values);
        return call(() -> stub.average(request)).getValue();
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        RandomDoublesRequest request = RandomDoublesRequest.newBuilder().setCount(count).setSeed(seed).build();
        return ProtoMapping.fromWire(call(() -> stub.randomDoubles(request)));
    }

    @Override
    public double[] logTransform(double[] values) throws Exception {
        Doubles request = ProtoMapping.toWire(values);
        return ProtoMapping.fromWire(call(() -> stub.logTransform(request)));
    }

    @Override
    public Record getRecord(String key) throws Exception {
        GetRecordRequest request = GetRecordRequest.newBuilder().setKey(key).build();
        return ProtoMapping.fromWire(call(() -> stub.getRecord(request)));
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws Exception {
        SearchBooksRequest request = SearchBooksRequest.newBuilder().setQuery(query).setCount(count).build();
        return ProtoMapping.booksFromWire(call(() -> stub.searchBooks(request)));
    }

    @Override
    public List<Item> getItems(int count) throws Exception {
        GetItemsRequest request = GetItemsRequest.newBuilder().setCount(count).build();
        return ProtoMapping.itemsFromWire(call(() -> stub.getItems(request)));
    }

    @Override
    public void fail(int code, String message) throws Exception {
        FailRequest request = FailRequest.newBuilder().setCode(code).setMessage(message).build();
        call(() -> stub.fail(request));
    }

    /** The chunks as the server streamed them, in order; the caller concatenates them. */
    @Override
    public List<double[]> randomDoublesStream(int count, long seed, int chunk) throws Exception {
        RandomDoublesStreamRequest request = RandomDoublesStreamRequest.newBuilder()
                .setCount(count).setSeed(seed).setChunk(chunk).build();
        return call(() -> {
            List<double[]> chunks = new ArrayList<>();
            Iterator<Doubles> stream = stub.randomDoublesStream(request);
            while (stream.hasNext()) {
                chunks.add(ProtoMapping.fromWire(stream.next()));
            }
            return chunks;
        });
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdown();
        if (!channel.awaitTermination(2, TimeUnit.SECONDS)) {
            channel.shutdownNow();
        }
    }
}
