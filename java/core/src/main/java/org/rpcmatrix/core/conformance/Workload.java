package org.rpcmatrix.core.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.rpcmatrix.core.contract.Operation;

/**
 * One timed workload of workloads.json: an operation and its arguments. {@code needs}: the capabilities it
 * needs, its own and its operation's. A session workload ({@code session} "calculator") has no {@code op}: one
 * call is one session on remote objects (CONTRACT.md#objects).
 */
public record Workload(String name, Operation op, JsonNode args, String size, List<String> needs, String session) {

    public Object[] decodeArgs() {
        return decodeArgs(op, args);
    }

    static Object[] decodeArgs(Operation op, JsonNode args) {
        List<String> types = op.paramTypes();
        if (args == null || !args.isArray() || args.size() != types.size()) {
            throw new IllegalArgumentException(op.contractName() + " takes " + types.size() + " arguments");
        }
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = Values.decode(args.get(i), types.get(i));
        }
        return values;
    }
}
