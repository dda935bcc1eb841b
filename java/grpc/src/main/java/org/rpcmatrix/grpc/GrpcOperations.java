package org.rpcmatrix.grpc;

import com.google.protobuf.ByteString;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.rpcmatrix.core.contract.Book;
import org.rpcmatrix.core.contract.Item;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.contract.Record;
import org.rpcmatrix.grpc.proto.BenchGrpc;
import org.rpcmatrix.grpc.proto.BoolValue;
import org.rpcmatrix.grpc.proto.BytesValue;
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
import org.rpcmatrix.grpc.proto.SearchBooksRequest;
import org.rpcmatrix.grpc.proto.StringValue;

/**
 * The gRPC type mapping of every unary operation of the contract, by {@link Operation}: the only per-operation
 * code of this module. randomDoublesStream, the one server stream, is mapped in BenchService and GrpcClient.
 */
final class GrpcOperations {
    private static final Empty EMPTY = Empty.getDefaultInstance();
    private static final Object[] NO_ARGS = {};

    static final Map<Operation, GrpcOperation<?, ?>> UNARY = table();

    private GrpcOperations() {
    }

    private static Object[] args(Object... values) {
        return values;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object value) {
        return (List<T>) value;
    }

    private static Map<Operation, GrpcOperation<?, ?>> table() {
        Map<Operation, GrpcOperation<?, ?>> t = new EnumMap<>(Operation.class);
        put(t, new GrpcOperation<>(Operation.PING, BenchGrpc.getPingMethod(),
                a -> EMPTY, q -> NO_ARGS, r -> EMPTY, r -> null));
        put(t, new GrpcOperation<>(Operation.ECHO_BOOL, BenchGrpc.getEchoBoolMethod(),
                a -> bool((Boolean) a[0]), q -> args(q.getValue()), r -> bool((Boolean) r), BoolValue::getValue));
        put(t, new GrpcOperation<>(Operation.ECHO_INT8, BenchGrpc.getEchoInt8Method(),
                a -> int8((Byte) a[0]), q -> args(GrpcMapping.int8FromWire(q.getValue())), r -> int8((Byte) r),
                r -> GrpcMapping.int8FromWire(r.getValue())));
        put(t, new GrpcOperation<>(Operation.ECHO_INT16, BenchGrpc.getEchoInt16Method(),
                a -> int16((Short) a[0]), q -> args(GrpcMapping.int16FromWire(q.getValue())), r -> int16((Short) r),
                r -> GrpcMapping.int16FromWire(r.getValue())));
        put(t, new GrpcOperation<>(Operation.ECHO_INT32, BenchGrpc.getEchoInt32Method(),
                a -> int32((Integer) a[0]), q -> args(q.getValue()), r -> int32((Integer) r), Int32Value::getValue));
        put(t, new GrpcOperation<>(Operation.ECHO_INT64, BenchGrpc.getEchoInt64Method(),
                a -> int64((Long) a[0]), q -> args(q.getValue()), r -> int64((Long) r), Int64Value::getValue));
        put(t, new GrpcOperation<>(Operation.ECHO_FLOAT32, BenchGrpc.getEchoFloat32Method(),
                a -> float32((Float) a[0]), q -> args(q.getValue()), r -> float32((Float) r), Float32Value::getValue));
        put(t, new GrpcOperation<>(Operation.ECHO_FLOAT64, BenchGrpc.getEchoFloat64Method(),
                a -> float64((Double) a[0]), q -> args(q.getValue()), r -> float64((Double) r), Float64Value::getValue));
        put(t, new GrpcOperation<>(Operation.ECHO_STRING, BenchGrpc.getEchoStringMethod(),
                a -> string((String) a[0]), q -> args(q.getValue()), r -> string((String) r), StringValue::getValue));
        put(t, new GrpcOperation<>(Operation.ECHO_BYTES, BenchGrpc.getEchoBytesMethod(),
                a -> bytes((byte[]) a[0]), q -> args((Object) q.getValue().toByteArray()), r -> bytes((byte[]) r),
                r -> r.getValue().toByteArray()));
        put(t, new GrpcOperation<>(Operation.IS_PRIME, BenchGrpc.getIsPrimeMethod(),
                a -> IsPrimeRequest.newBuilder().setN((Integer) a[0]).build(), q -> args(q.getN()),
                r -> bool((Boolean) r), BoolValue::getValue));
        put(t, new GrpcOperation<>(Operation.AVERAGE, BenchGrpc.getAverageMethod(),
                a -> GrpcMapping.toWire((double[]) a[0]), q -> args((Object) GrpcMapping.fromWire(q)),
                r -> float64((Double) r), Float64Value::getValue));
        put(t, new GrpcOperation<>(Operation.RANDOM_DOUBLES, BenchGrpc.getRandomDoublesMethod(),
                a -> RandomDoublesRequest.newBuilder().setCount((Integer) a[0]).setSeed((Long) a[1]).build(),
                q -> args(q.getCount(), q.getSeed()), r -> GrpcMapping.toWire((double[]) r), GrpcMapping::fromWire));
        put(t, new GrpcOperation<>(Operation.LOG_TRANSFORM, BenchGrpc.getLogTransformMethod(),
                a -> GrpcMapping.toWire((double[]) a[0]), q -> args((Object) GrpcMapping.fromWire(q)),
                r -> GrpcMapping.toWire((double[]) r), GrpcMapping::fromWire));
        put(t, new GrpcOperation<>(Operation.GET_RECORD, BenchGrpc.getGetRecordMethod(),
                a -> GetRecordRequest.newBuilder().setKey((String) a[0]).build(), q -> args(q.getKey()),
                r -> GrpcMapping.toWire((Record) r), GrpcMapping::fromWire));
        put(t, new GrpcOperation<>(Operation.SEARCH_BOOKS, BenchGrpc.getSearchBooksMethod(),
                a -> SearchBooksRequest.newBuilder().setQuery((String) a[0]).setCount((Integer) a[1]).build(),
                q -> args(q.getQuery(), q.getCount()), r -> GrpcMapping.booksToWire(GrpcOperations.<Book>list(r)),
                GrpcMapping::booksFromWire));
        put(t, new GrpcOperation<>(Operation.GET_ITEMS, BenchGrpc.getGetItemsMethod(),
                a -> GetItemsRequest.newBuilder().setCount((Integer) a[0]).build(), q -> args(q.getCount()),
                r -> GrpcMapping.itemsToWire(GrpcOperations.<Item>list(r)), GrpcMapping::itemsFromWire));
        put(t, new GrpcOperation<>(Operation.FAIL, BenchGrpc.getFailMethod(),
                a -> FailRequest.newBuilder().setCode((Integer) a[0]).setMessage((String) a[1]).build(),
                q -> args(q.getCode(), q.getMessage()), r -> EMPTY, r -> null));
        return Collections.unmodifiableMap(t);
    }

    private static void put(Map<Operation, GrpcOperation<?, ?>> table, GrpcOperation<?, ?> mapping) {
        table.put(mapping.op(), mapping);
    }

    private static BoolValue bool(boolean v) {
        return BoolValue.newBuilder().setValue(v).build();
    }

    private static Int8Value int8(byte v) {
        return Int8Value.newBuilder().setValue(v).build();
    }

    private static Int16Value int16(short v) {
        return Int16Value.newBuilder().setValue(v).build();
    }

    private static Int32Value int32(int v) {
        return Int32Value.newBuilder().setValue(v).build();
    }

    private static Int64Value int64(long v) {
        return Int64Value.newBuilder().setValue(v).build();
    }

    private static Float32Value float32(float v) {
        return Float32Value.newBuilder().setValue(v).build();
    }

    private static Float64Value float64(double v) {
        return Float64Value.newBuilder().setValue(v).build();
    }

    private static StringValue string(String v) {
        return StringValue.newBuilder().setValue(v).build();
    }

    private static BytesValue bytes(byte[] v) {
        return BytesValue.newBuilder().setValue(ByteString.copyFrom(v)).build();
    }
}
