package org.rpcmatrix.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.grpc.proto.BenchGrpc;
import org.rpcmatrix.grpc.proto.Int16Value;
import org.rpcmatrix.grpc.proto.Int8Value;

/** The server adapter and the client adapter talking through grpc-java's in-process transport. */
class GrpcRoundTripTest {
    private final List<Server> servers = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();

    private ManagedChannel channelTo(io.grpc.BindableService service) throws Exception {
        String name = InProcessServerBuilder.generateName();
        servers.add(InProcessServerBuilder.forName(name).directExecutor().addService(service).build().start());
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        channels.add(channel);
        return channel;
    }

    private GrpcClient referenceClient() throws Exception {
        return new GrpcClient(channelTo(new BenchService(new ReferenceBench())));
    }

    @AfterEach
    void shutDown() {
        channels.forEach(ManagedChannel::shutdownNow);
        servers.forEach(Server::shutdownNow);
    }

    @Test
    void everyVectorPassesThroughTheOperationTable() throws Exception {
        java.nio.file.Path idl = java.nio.file.Path.of("..", "..", "idl");
        org.rpcmatrix.core.adapter.ClientOptions options = new org.rpcmatrix.core.adapter.ClientOptions(
                org.rpcmatrix.core.contract.ProtocolRegistry.load(idl).require("grpc"), "127.0.0.1", 9, idl, null);
        GrpcClient client = referenceClient();
        org.rpcmatrix.core.harness.ClientSession session = new org.rpcmatrix.core.harness.ClientSession(
                org.rpcmatrix.core.conformance.ContractFiles.load(idl), options, o -> client);
        session.handle("{\"cmd\": \"connect\"}");
        com.fasterxml.jackson.databind.JsonNode answer = org.rpcmatrix.core.contract.Json.MAPPER.readTree(
                session.handle("{\"cmd\": \"vectors\"}"));
        assertEquals(org.rpcmatrix.core.conformance.ContractFiles.load(idl).vectors().size(), answer.get("results").size());
        for (com.fasterxml.jackson.databind.JsonNode result : answer.get("results")) {
            // the registry: gRPC lacks remote objects and the security checks, and has everything else
            String expected = result.get("id").textValue().matches("calculator_.*|refuse_.*") ? "unsupported" : "pass";
            assertEquals(expected, result.get("status").textValue(), result.toString());
        }
    }

    @Test
    void failArrivesAsTheSameBenchError() throws Exception {
        GrpcClient client = referenceClient();
        BenchError error = assertThrows(BenchError.class, () -> client.fail(1234, "boom: ünïcode ✓"));
        assertEquals(1234, error.code());
        assertEquals("boom: ünïcode ✓", error.getMessage());
    }

    @Test
    void aNegativeCountArrivesAsBenchError400() throws Exception {
        GrpcClient client = referenceClient();
        BenchError error = assertThrows(BenchError.class, () -> client.getItems(-1));
        assertEquals(400, error.code());
        assertEquals("count must not be negative", error.getMessage());
        assertThrows(BenchError.class, () -> client.randomDoublesStream(-1, 1, 10));
    }

    @Test
    void theStreamComesInChunksWhoseConcatenationIsRandomDoubles() throws Exception {
        GrpcClient client = referenceClient();
        List<double[]> chunks = client.randomDoublesStream(10001, 3, 1000);
        assertEquals(11, chunks.size());
        assertEquals(1, chunks.get(10).length);
        double[] all = new double[10001];
        int at = 0;
        for (double[] chunk : chunks) {
            System.arraycopy(chunk, 0, all, at, chunk.length);
            at += chunk.length;
        }
        assertArrayEquals(new ReferenceBench().randomDoubles(10001, 3), all);
        assertEquals(0, client.randomDoublesStream(0, 3, 1000).size());
    }

    @Test
    void int8AndInt16EchoAtTheirLimits() throws Exception {
        GrpcClient client = referenceClient();
        assertEquals(Byte.MIN_VALUE, client.echoInt8(Byte.MIN_VALUE));
        assertEquals(Short.MAX_VALUE, client.echoInt16(Short.MAX_VALUE));
    }

    @Test
    void theServerRejectsAnInt8OrInt16ThatDoesNotFit() throws Exception {
        BenchGrpc.BenchBlockingStub stub =
                BenchGrpc.newBlockingStub(channelTo(new BenchService(new ReferenceBench())));
        StatusRuntimeException int8 = assertThrows(StatusRuntimeException.class,
                () -> stub.echoInt8(Int8Value.newBuilder().setValue(128).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, int8.getStatus().getCode());
        StatusRuntimeException int16 = assertThrows(StatusRuntimeException.class,
                () -> stub.echoInt16(Int16Value.newBuilder().setValue(-32769).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, int16.getStatus().getCode());
    }

    /** A server that answers int8 and int16 echoes with values that do not fit. */
    private static final class OutOfRangeServer extends BenchGrpc.BenchImplBase {
        @Override
        public void echoInt8(Int8Value request, StreamObserver<Int8Value> observer) {
            observer.onNext(Int8Value.newBuilder().setValue(200).build());
            observer.onCompleted();
        }

        @Override
        public void echoInt16(Int16Value request, StreamObserver<Int16Value> observer) {
            observer.onNext(Int16Value.newBuilder().setValue(40000).build());
            observer.onCompleted();
        }
    }

    @Test
    void theClientRejectsAnInt8OrInt16ThatDoesNotFit() throws Exception {
        GrpcClient client = new GrpcClient(channelTo(new OutOfRangeServer()));
        assertThrows(IllegalArgumentException.class, () -> client.echoInt8((byte) 1));
        assertThrows(IllegalArgumentException.class, () -> client.echoInt16((short) 1));
    }
}
