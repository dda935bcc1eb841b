package org.rpcmatrix.thrift;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TBase;
import org.apache.thrift.TFieldIdEnum;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.thrift.gen.Bench;

/**
 * One operation of the Thrift service: its generated argument and result structs and the converters of its
 * parameters and result. The structs are read and written by field id (arguments 1..n in order, result success
 * 0, declared BenchError 1) through the generated {@code getFieldValue}/{@code setFieldValue} switches: no
 * reflection per call.
 */
record ThriftOperation(Operation op, Supplier<TBase<?, ?>> args, Supplier<TBase<?, ?>> result,
        List<ThriftMapping.Converter> paramsToThrift, List<ThriftMapping.Converter> paramsFromThrift,
        ThriftMapping.Converter resultToThrift, ThriftMapping.Converter resultFromThrift) {

    static final short SUCCESS = 0;
    static final short ERROR = 1;

    /** Every operation of idl/bench.thrift's service (not randomDoublesStream: Thrift lacks server-streaming). */
    static final Map<Operation, ThriftOperation> TABLE = table();

    /**
     * The table, read from the code the Thrift compiler generated, not written per operation: its processor has
     * a function per operation of the service, which makes the argument struct; the result struct is the
     * compiler's {@code Bench.<name>_result}, found once here and made for each call as a copy of an empty one.
     */
    private static Map<Operation, ThriftOperation> table() {
        Map<Operation, ThriftOperation> t = new EnumMap<>(Operation.class);
        Bench.Processor<Bench.Iface> compilers = new Bench.Processor<>(null);
        for (ProcessFunction<?, ?> function : compilers.getProcessMapView().values()) {
            Operation op = Operation.byName(function.getMethodName());
            if (op == null) {
                throw new IllegalStateException("idl/bench.thrift's " + function.getMethodName()
                        + " is not an operation of the contract");
            }
            TBase<?, ?> emptyResult = emptyResult(function.getMethodName());
            put(t, op, function::getEmptyArgsInstance, emptyResult::deepCopy);
        }
        return Collections.unmodifiableMap(t);
    }

    private static TBase<?, ?> emptyResult(String name) {
        try {
            return (TBase<?, ?>) Class.forName(Bench.class.getName() + "$" + name + "_result").getConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the Thrift compiler generated no result struct for " + name, e);
        }
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
