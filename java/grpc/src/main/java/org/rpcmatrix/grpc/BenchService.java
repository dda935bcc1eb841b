package org.rpcmatrix.grpc;

import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.grpc.proto.BenchGrpc;
import org.rpcmatrix.grpc.proto.Doubles;
import org.rpcmatrix.grpc.proto.RandomDoublesStreamRequest;

/**
 * The gRPC server adapter, built from the operation table: each unary method unwraps its request, calls the
 * contract's Bench through {@link org.rpcmatrix.core.contract.Operation#invoke} and wraps the answer; an exception
 * becomes the status the contract asks for. The service definition names every method of idl/bench.proto,
 * so grpc-java refuses to build it if the table misses one.
 */
final class BenchService implements BindableService {
    private final Bench bench;

    BenchService(Bench bench) {
        this.bench = bench;
    }

    @Override
    public ServerServiceDefinition bindService() {
        ServerServiceDefinition.Builder service = ServerServiceDefinition.builder(BenchGrpc.getServiceDescriptor());
        for (GrpcOperation<?, ?> mapping : GrpcOperations.UNARY.values()) {
            addUnary(service, mapping);
        }
        service.addMethod(BenchGrpc.getRandomDoublesStreamMethod(),
                ServerCalls.asyncServerStreamingCall(this::randomDoublesStream));
        return service.build();
    }

    private <Q, R> void addUnary(ServerServiceDefinition.Builder service, GrpcOperation<Q, R> mapping) {
        service.addMethod(mapping.method(), ServerCalls.asyncUnaryCall((Q request, StreamObserver<R> observer) -> {
            R response;
            try {
                response = mapping.response().apply(mapping.op().invoke(bench, mapping.arguments().apply(request)));
            } catch (Exception e) {
                observer.onError(BenchErrorStatus.toStatus(e));
                return;
            }
            observer.onNext(response);
            observer.onCompleted();
        }));
    }

    /** One Doubles message per chunk, in order; the client concatenates them. */
    private void randomDoublesStream(RandomDoublesStreamRequest request, StreamObserver<Doubles> observer) {
        List<double[]> chunks;
        try {
            chunks = bench.randomDoublesStream(request.getCount(), request.getSeed(), request.getChunk());
        } catch (Exception e) {
            observer.onError(BenchErrorStatus.toStatus(e));
            return;
        }
        for (double[] chunk : chunks) {
            observer.onNext(GrpcMapping.toWire(chunk));
        }
        observer.onCompleted();
    }
}
