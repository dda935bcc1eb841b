package org.rpcmatrix.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.contract.Operation;

/** The operation table maps every unary operation to the proto method of the same name. */
class GrpcOperationsTest {
    @Test
    void everyUnaryOperationHasItsMethod() {
        for (Operation op : Operation.values()) {
            GrpcOperation<?, ?> mapping = GrpcOperations.UNARY.get(op);
            if (op == Operation.RANDOM_DOUBLES_STREAM) {
                assertFalse(GrpcOperations.UNARY.containsKey(op), "the stream is mapped apart");
                continue;
            }
            assertTrue(mapping != null, op.contractName());
            assertEquals(op, mapping.op());
            assertEquals(op.contractName(), mapping.method().getBareMethodName());
        }
    }
}
