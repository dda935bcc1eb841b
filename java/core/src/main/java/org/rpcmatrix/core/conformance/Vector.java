package org.rpcmatrix.core.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.reference.ReferenceBench;

/**
 * One conformance vector of vectors.json. Arguments stay JSON until the vector runs (some are 1 MiB).
 * {@code expectedError} is null unless the call must raise that BenchError; {@code expectContract} says the
 * answer is computed with {@link ReferenceBench}, otherwise it is the first argument (nothing for void).
 * {@code needs}: the capabilities it needs, its own and its operation's. A session vector has no {@code op}
 * but a {@code session} and {@code script}; an attack vector names the defect the server must refuse
 * (CONTRACT.md#vectors); both are null otherwise.
 */
public record Vector(String id, Operation op, JsonNode args, boolean expectContract, BenchError expectedError,
        List<String> needs, String session, String script, String attack) {

    public Object[] decodeArgs() {
        return Workload.decodeArgs(op, args);
    }
}
