package org.rpcmatrix.core.contract;

import java.util.List;
import java.util.Locale;
import org.rpcmatrix.core.conformance.Values;

/**
 * The contract's operations with their ids and types as written in idl/contract.json ({@code OperationTest}
 * checks that they match). Protocols use it to dispatch by id or name and to convert by type.
 */
public enum Operation {
    PING(0, "ping", List.of(), "void"),
    ECHO_BOOL(1, "echoBool", List.of("bool"), "bool"),
    ECHO_INT8(2, "echoInt8", List.of("int8"), "int8"),
    ECHO_INT16(3, "echoInt16", List.of("int16"), "int16"),
    ECHO_INT32(4, "echoInt32", List.of("int32"), "int32"),
    ECHO_INT64(5, "echoInt64", List.of("int64"), "int64"),
    ECHO_FLOAT32(6, "echoFloat32", List.of("float32"), "float32"),
    ECHO_FLOAT64(7, "echoFloat64", List.of("float64"), "float64"),
    ECHO_STRING(8, "echoString", List.of("string"), "string"),
    ECHO_BYTES(9, "echoBytes", List.of("bytes"), "bytes"),
    IS_PRIME(10, "isPrime", List.of("int32"), "bool"),
    AVERAGE(11, "average", List.of("float64[]"), "float64"),
    RANDOM_DOUBLES(12, "randomDoubles", List.of("int32", "int64"), "float64[]"),
    LOG_TRANSFORM(13, "logTransform", List.of("float64[]"), "float64[]"),
    GET_RECORD(14, "getRecord", List.of("string"), "Record"),
    SEARCH_BOOKS(15, "searchBooks", List.of("string", "int32"), "Book[]"),
    GET_ITEMS(16, "getItems", List.of("int32"), "Item[]"),
    FAIL(17, "fail", List.of("int32", "string"), "void"),
    RANDOM_DOUBLES_STREAM(18, "randomDoublesStream", List.of("int32", "int64", "int32"), "stream float64[]");

    private static final Operation[] BY_ID = values();

    private final int id;
    private final String contractName;
    private final List<String> paramTypes;
    private final String returnType;

    Operation(int id, String contractName, List<String> paramTypes, String returnType) {
        this.id = id;
        this.contractName = contractName;
        this.paramTypes = paramTypes;
        this.returnType = returnType;
    }

    public int id() {
        return id;
    }

    public String contractName() {
        return contractName;
    }

    public List<String> paramTypes() {
        return paramTypes;
    }

    public String returnType() {
        return returnType;
    }

    /** The operation with this contract id, or null. */
    public static Operation byId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /** The operation with this contract name ("echoInt8"), or null. */
    public static Operation byName(String name) {
        for (Operation op : BY_ID) {
            if (op.contractName.equals(name)) {
                return op;
            }
        }
        return null;
    }

    /**
     * Calls this operation on {@code bench} with arguments already of their Java types (see {@link Values}).
     * Returns null for void; the list of chunks for randomDoublesStream.
     */
    public Object invoke(Bench bench, Object[] args) throws Exception {
        if (args.length != paramTypes.size()) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s takes %d arguments, got %d",
                    contractName, paramTypes.size(), args.length));
        }
        switch (this) {
            case PING:
                bench.ping();
                return null;
            case ECHO_BOOL:
                return bench.echoBool((Boolean) args[0]);
            case ECHO_INT8:
                return bench.echoInt8((Byte) args[0]);
            case ECHO_INT16:
                return bench.echoInt16((Short) args[0]);
            case ECHO_INT32:
                return bench.echoInt32((Integer) args[0]);
            case ECHO_INT64:
                return bench.echoInt64((Long) args[0]);
            case ECHO_FLOAT32:
                return bench.echoFloat32((Float) args[0]);
            case ECHO_FLOAT64:
                return bench.echoFloat64((Double) args[0]);
            case ECHO_STRING:
                return bench.echoString((String) args[0]);
            case ECHO_BYTES:
                return bench.echoBytes((byte[]) args[0]);
            case IS_PRIME:
                return bench.isPrime((Integer) args[0]);
            case AVERAGE:
                return bench.average((double[]) args[0]);
            case RANDOM_DOUBLES:
                return bench.randomDoubles((Integer) args[0], (Long) args[1]);
            case LOG_TRANSFORM:
                return bench.logTransform((double[]) args[0]);
            case GET_RECORD:
                return bench.getRecord((String) args[0]);
            case SEARCH_BOOKS:
                return bench.searchBooks((String) args[0], (Integer) args[1]);
            case GET_ITEMS:
                return bench.getItems((Integer) args[0]);
            case FAIL:
                bench.fail((Integer) args[0], (String) args[1]);
                return null;
            case RANDOM_DOUBLES_STREAM:
                return bench.randomDoublesStream((Integer) args[0], (Long) args[1], (Integer) args[2]);
            default:
                throw new AssertionError(this);
        }
    }
}
