package org.rpcmatrix.core.harness;

import java.util.ArrayList;
import java.util.List;
import org.rpcmatrix.core.conformance.Answers;
import org.rpcmatrix.core.conformance.CalculatorSessions;
import org.rpcmatrix.core.conformance.Workload;
import org.rpcmatrix.core.contract.Operation;

/**
 * A workload as this process holds it: its arguments, built once for the process's life (so no command
 * between {@code prepare} and {@code samples} builds any), its expected answer (computed on first need), and
 * the buffer of sample lists, one per {@code measure} since the last {@code prepare}.
 */
final class PreparedWorkload {
    private final Workload workload;
    private final Object[] args;
    private Object expected;
    private boolean expectedKnown;
    private final List<long[]> samples = new ArrayList<>();

    PreparedWorkload(Workload workload) {
        this.workload = workload;
        // A session workload's one argument is the number of add() calls of a session (CONTRACT.md#objects).
        this.args = isSession() ? new Object[] {workload.args().get(0).asLong()} : workload.decodeArgs();
    }

    Workload workload() {
        return workload;
    }

    boolean isSession() {
        return workload.session() != null;
    }

    Operation op() {
        return workload.op();
    }

    Object[] args() {
        return args;
    }

    /** The contract's answer to these arguments, in the form the comparison rules take. */
    Object expected() throws Exception {
        if (!expectedKnown) {
            expected = isSession() ? (Object) CalculatorSessions.expectedTotal((Long) args[0])
                    : Answers.contractAnswer(workload.op(), args);
            expectedKnown = true;
        }
        return expected;
    }

    void addSamples(long[] repetition) {
        samples.add(repetition);
    }

    /** The sample lists so far, in order; the buffer is empty afterwards. */
    List<long[]> takeSamples() {
        List<long[]> taken = List.copyOf(samples);
        samples.clear();
        return taken;
    }

    void clearSamples() {
        samples.clear();
    }
}
