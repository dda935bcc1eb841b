package org.rpcmatrix.core.conformance;

import java.util.List;
import java.util.Optional;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.reference.ReferenceBench;

/** Expected answers and their checks, shared by the vectors and the warm-up. */
public final class Answers {
    private static final ReferenceBench REFERENCE = new ReferenceBench();

    private Answers() {
    }

    /** What the contract answers to {@code op(args)}, in the form {@link #comparable} gives. */
    public static Object contractAnswer(Operation op, Object[] args) throws Exception {
        return comparable(op, op.invoke(REFERENCE, args));
    }

    /** A stream's chunks are checked by their concatenation; every other answer as it is. */
    public static Object comparable(Operation op, Object answer) {
        if (op != Operation.RANDOM_DOUBLES_STREAM || answer == null) {
            return answer;
        }
        @SuppressWarnings("unchecked")
        List<double[]> chunks = (List<double[]>) answer;
        int total = chunks.stream().mapToInt(c -> c.length).sum();
        double[] all = new double[total];
        int at = 0;
        for (double[] chunk : chunks) {
            System.arraycopy(chunk, 0, all, at, chunk.length);
            at += chunk.length;
        }
        return all;
    }

    /** The first difference between the expected and the actual answer of {@code op}, if any. */
    public static Optional<String> difference(Operation op, Object expected, Object actual) {
        return Comparison.forOperation(op).firstDifference("result", expected, comparable(op, actual));
    }
}
