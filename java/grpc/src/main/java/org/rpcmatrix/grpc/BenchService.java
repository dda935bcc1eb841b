package org.rpcmatrix.grpc;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.rpcmatrix.core.Bench;
import org.rpcmatrix.grpc.proto.BenchGrpc;
import org.rpcmatrix.grpc.proto.BoolValue;
import org.rpcmatrix.grpc.proto.Books;
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
import org.rpcmatrix.grpc.proto.Items;
import org.rpcmatrix.grpc.proto.RandomDoublesRequest;
import org.rpcmatrix.grpc.proto.RandomDoublesStreamRequest;
import org.rpcmatrix.grpc.proto.SearchBooksRequest;
import org.rpcmatrix.grpc.proto.StringValue;

/** The gRPC server adapter: unwraps each request, calls the contract's Bench, wraps the answer. */
final class BenchService extends BenchGrpc.BenchImplBase {
    private static final Empty EMPTY = Empty.getDefaultInstance();

    private final Bench bench;

    BenchService(Bench bench) {
        this.bench = bench;
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws Exception;
    }

    /** Answers one unary call, turning an exception into the status the contract asks for. */
    private static <T> void answer(StreamObserver<T> observer, Call<T> call) {
        T response;
        try {
            response = call.run();
        } catch (Exception e) {
            observer.onError(BenchErrorStatus.toStatus(e));
            return;
        }
        observer.onNext(response);
        observer.onCompleted();
    }

    @Override
    public void ping(Empty request, StreamObserver<Empty> observer) {
        answer(observer, () -> {
            bench.ping();
            return EMPTY;
        });
    }

    @Override
    public void echoBool(BoolValue request, StreamObserver<BoolValue> observer) {
        answer(observer, () -> BoolValue.newBuilder().setValue(bench.echoBool(request.getValue())).build());
    }

    @Override
    public void echoInt8(Int8Value request, StreamObserver<Int8Value> observer) {
        answer(observer, () -> Int8Value.newBuilder()
                .setValue(bench.echoInt8(ProtoMapping.int8FromWire(request.getValue()))).build());
    }

    @Override
    public void echoInt16(Int16Value request, StreamObserver<Int16Value> observer) {
        answer(observer, () -> Int16Value.newBuilder()
                .setValue(bench.echoInt16(ProtoMapping.int16FromWire(request.getValue()))).build());
    }

    @Override
    public void echoInt32(Int32Value request, StreamObserver<Int32Value> observer) {
        answer(observer, () -> Int32Value.newBuilder().setValue(bench.echoInt32(request.getValue())).build());
    }

    @Override
    public void echoInt64(Int64Value request, StreamObserver<Int64Value> observer) {
        answer(observer, () -> Int64Value.newBuilder().setValue(bench.echoInt64(request.getValue())).build());
    }

    @Override
    public void echoFloat32(Float32Value request, StreamObserver<Float32Value> observer) {
        answer(observer, () -> Float32Value.newBuilder()
                .setValue(bench.echoFloat32(request.getValue())).build());
    }

    @Override
    public void echoFloat64(Float64Value request, StreamObserver<Float64Value> observer) {
        answer(observer, () -> Float64Value.newBuilder()
                .setValue(bench.echoFloat64(request.getValue())).build());
    }

    @Override
    public void echoString(StringValue request, StreamObserver<StringValue> observer) {
        answer(observer, () -> StringValue.newBuilder()
                .setValue(bench.echoString(request.getValue())).build());
    }

    @Override
    public void echoBytes(BytesValue request, StreamObserver<BytesValue> observer) {
        answer(observer, () -> BytesValue.newBuilder()
                .setValue(ByteString.copyFrom(bench.echoBytes(request.getValue().toByteArray()))).build());
    }

    @Override
    public void isPrime(IsPrimeRequest request, StreamObserver<BoolValue> observer) {
        answer(observer, () -> BoolValue.newBuilder().setValue(bench.isPrime(request.getN())).build());
    }

    @Override
    public void average(Doubles request, StreamObserver<Float64Value> observer) {
        answer(observer, () -> Float64Value.newBuilder()
                .setValue(bench.average(ProtoMapping.fromWire(request))).build());
    }

    @Override
    public void randomDoubles(RandomDoublesRequest request, StreamObserver<Doubles> observer) {
        answer(observer, () ->
                ProtoMapping.toWire(bench.randomDoubles(request.getCount(), request.getSeed())));
    }

    @Override
    public void logTransform(Doubles request, StreamObserver<Doubles> observer) {
        answer(observer, () -> ProtoMapping.toWire(bench.logTransform(ProtoMapping.fromWire(request))));
    }

    @Override
    public void getRecord(GetRecordRequest request,
            StreamObserver<org.rpcmatrix.grpc.proto.Record> observer) {
        answer(observer, () -> ProtoMapping.toWire(bench.getRecord(request.getKey())));
    }

    @Override
    public void searchBooks(SearchBooksRequest request, StreamObserver<Books> observer) {
        answer(observer, () ->
                ProtoMapping.booksToWire(bench.searchBooks(request.getQuery(), request.getCount())));
    }

    @Override
    public void getItems(GetItemsRequest request, StreamObserver<Items> observer) {
        answer(observer, () -> ProtoMapping.itemsToWire(bench.getItems(request.getCount())));
    }

    @Override
    public void fail(FailRequest request, StreamObserver<Empty> observer) {
        answer(observer, () -> {
            bench.fail(request.getCode(), request.getMessage());
            return EMPTY;
        });
    }

    /** One Doubles message per chunk, in order; the client concatenates them. */
    @Override
    public void randomDoublesStream(RandomDoublesStreamRequest request, StreamObserver<Doubles> observer) {
        List<double[]> chunks;
        try {
            chunks = bench.randomDoublesStream(request.getCount(), request.getSeed(), request.getChunk());
        } catch (Exception e) {
            observer.onError(BenchErrorStatus.toStatus(e));
            return;
        }
        for (double[] chunk : chunks) {
            observer.onNext(ProtoMapping.toWire(chunk));
        }
        observer.onCompleted();
    }
}
