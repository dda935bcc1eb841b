package org.rpcmatrix.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One conformance vector of vectors.json. Arguments stay JSON until the vector runs (some are 1 MiB).
 * {@code expectedError} is null unless the call must raise that BenchError; {@code expectContract} says the
 * answer is computed with {@link ReferenceBench}, otherwise it is the first argument (nothing for void).
 */
public record Vector(String id, Operation op, JsonNode args, boolean expectContract, BenchError expectedError,
        List<String> tags, List<String> protocols) {

    /** Whether this vector belongs to {@code protocol} (a vector with no protocols list belongs to all). */
    public boolean belongsTo(String protocol) {
        return protocols.isEmpty() || protocols.contains(protocol);
    }

    public Object[] decodeArgs() {
        return Workload.decodeArgs(op, args);
    }
}
