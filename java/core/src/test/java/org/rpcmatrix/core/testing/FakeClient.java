package org.rpcmatrix.core.testing;

import java.util.List;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.core.reference.ReferenceBench;

/**
 * An in-process client that answers with the contract, except for planted faults: it turns CR into LF (as a
 * careless XML writer does), and its transport breaks on echoInt64(-42).
 */
public class FakeClient extends OperationClient {
    private final ReferenceBench reference = new ReferenceBench();
    public boolean closed;

    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        switch (op) {
            case ECHO_INT64:
                if ((Long) args[0] == -42) {
                    throw new IllegalStateException("connection reset");
                }
                break;
            case ECHO_STRING:
                return ((String) args[0]).replace('\r', '\n');
            case ECHO_BYTES:
                return ((byte[]) args[0]).clone();
            default:
                break;
        }
        return op.invoke(reference, args);
    }

    @Override
    public List<double[]> randomDoublesStream(int count, long seed, int chunk) throws Exception {
        return reference.randomDoublesStream(count, seed, chunk);
    }

    @Override
    public void close() {
        closed = true;
    }
}
