package org.rpcmatrix.thrift;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.thrift.TBase;
import org.apache.thrift.TFieldIdEnum;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.thrift.gen.Bench;

/**
 * One operation of the Thrift service: its generated argument and result structs (made by method
 * references) and the converters of its parameters and result. The structs are read and written by field id
 * (arguments 1..n in order, result success 0, declared BenchError 1) through the generated
 * {@code getFieldValue}/{@code setFieldValue} switches: no reflection.
 */
record ThriftOperation(Operation op, Supplier<TBase<?, ?>> args, Supplier<TBase<?, ?>> result,
        List<ThriftMapping.Converter> paramsToThrift, List<ThriftMapping.Converter> paramsFromThrift,
        ThriftMapping.Converter resultToThrift, ThriftMapping.Converter resultFromThrift) {

    static final short SUCCESS = 0;
    static final short ERROR = 1;

    /** Every operation of the contract except randomDoublesStream, which Thrift lacks (server-streaming). */
    static final Map<Operation, ThriftOperation> TABLE = table();

    private static Map<Operation, ThriftOperation> table() {
        Map<Operation, ThriftOperation> t = new EnumMap<>(Operation.class);
        put(t, Operation.PING, Bench.ping_args::new, Bench.ping_result::new);
        put(t, Operation.ECHO_BOOL, Bench.echoBool_args::new, Bench.echoBool_result::new);
        put(t, Operation.ECHO_INT8, Bench.echoInt8_args::new, Bench.echoInt8_result::new);
        put(t, Operation.ECHO_INT16, Bench.echoInt16_args::new, Bench.echoInt16_result::new);
        put(t, Operation.ECHO_INT32, Bench.echoInt32_args::new, Bench.echoInt32_result::new);
        put(t, Operation.ECHO_INT64, Bench.echoInt64_args::new, Bench.echoInt64_result::new);
        put(t, Operation.ECHO_FLOAT32, Bench.echoFloat32_args::new, Bench.echoFloat32_result::new);
        put(t, Operation.ECHO_FLOAT64, Bench.echoFloat64_args::new, Bench.echoFloat64_result::new);
        put(t, Operation.ECHO_STRING, Bench.echoString_args::new, Bench.echoString_result::new);
        put(t, Operation.ECHO_BYTES, Bench.echoBytes_args::new, Bench.echoBytes_result::new);
        put(t, Operation.IS_PRIME, Bench.isPrime_args::new, Bench.isPrime_result::new);
        put(t, Operation.AVERAGE, Bench.average_args::new, Bench.average_result::new);
        put(t, Operation.RANDOM_DOUBLES, Bench.randomDoubles_args::new, Bench.randomDoubles_result::new);
        put(t, Operation.LOG_TRANSFORM, Bench.logTransform_args::new, Bench.logTransform_result::new);
        put(t, Operation.GET_RECORD, Bench.getRecord_args::new, Bench.getRecord_result::new);
        put(t, Operation.SEARCH_BOOKS, Bench.searchBooks_args::new, Bench.searchBooks_result::new);
        put(t, Operation.GET_ITEMS, Bench.getItems_args::new, Bench.getItems_result::new);
        put(t, Operation.FAIL, Bench.fail_args::new, Bench.fail_result::new);
        return Collections.unmodifiableMap(t);
    }

    private static void put(Map<Operation, ThriftOperation> table, Operation op, Supplier<TBase<?, ?>> args,
            Supplier<TBase<?, ?>> result) {
        List<String> types = op.paramTypes();
        ThriftMapping.Converter[] to = new ThriftMapping.Converter[types.size()];
        ThriftMapping.Converter[] from = new ThriftMapping.Converter[types.size()];
        for (int i = 0; i < to.length; i++) {
            to[i] = ThriftMapping.toWire(types.get(i));
            from[i] = ThriftMapping.fromWire(types.get(i), op.contractName() + " value");
        }
        table.put(op, new ThriftOperation(op, args, result, List.of(to), List.of(from),
                ThriftMapping.toWire(op.returnType()), ThriftMapping.fromWire(op.returnType(), op.contractName() + " result")));
    }

    boolean returnsVoid() {
        return op.returnType().equals("void");
    }

    /** The field with this id of a generated struct (null when the struct has none). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static TFieldIdEnum field(TBase struct, int id) {
        return ((TBase<?, TFieldIdEnum>) struct).fieldForId(id);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void set(TBase struct, int id, Object value) {
        struct.setFieldValue(field(struct, id), value);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static boolean isSet(TBase struct, int id) {
        TFieldIdEnum field = field(struct, id);
        return field != null && struct.isSet(field);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object get(TBase struct, int id) {
        return struct.getFieldValue(field(struct, id));
    }
}
