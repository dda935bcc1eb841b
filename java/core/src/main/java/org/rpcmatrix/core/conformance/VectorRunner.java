package org.rpcmatrix.core.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.AttackClient;
import org.rpcmatrix.core.adapter.CalculatorClient;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Protocol;

/** Runs conformance vectors against a client and judges each answer (CONTRACT.md#vectors). */
public final class VectorRunner {
    private static final int MAX_REASON_CHARS = 400;

    private VectorRunner() {
    }

    /**
     * Every vector, in file order; one whose needs {@code protocol} lacks is unsupported with the registry's
     * reason and not sent.
     */
    public static List<VectorResult> run(Bench client, List<Vector> vectors, Protocol protocol) {
        List<VectorResult> results = new ArrayList<>();
        for (Vector vector : vectors) {
            results.add(runOne(client, vector, protocol));
        }
        return results;
    }

    public static VectorResult runOne(Bench client, Vector vector, Protocol protocol) {
        String unsupported = protocol.unsupportedReason(vector.needs());
        if (unsupported != null) {
            return new VectorResult(vector.id(), VectorResult.UNSUPPORTED, unsupported);
        }
        if (vector.session() != null) {
            return runSession(client, vector);
        }
        if (vector.attack() != null) {
            return runAttack(client, vector);
        }
        Object[] args;
        Object expected;
        try {
            args = vector.decodeArgs();
            expected = expectation(vector, args);
        } catch (Exception e) {
            return new VectorResult(vector.id(), VectorResult.ERROR, "cannot build the vector: " + describe(e));
        }
        Object actual;
        try {
            actual = vector.op().invoke(client, args);
        } catch (BenchError e) {
            return judgeError(vector, e);
        } catch (Exception | Error e) {
            return new VectorResult(vector.id(), VectorResult.ERROR, describe(e));
        }
        if (vector.expectedError() != null) {
            return fail(vector, "expected " + vector.expectedError() + ", the call returned normally");
        }
        Optional<String> difference = Answers.difference(vector.op(), expected, actual);
        return difference.map(d -> fail(vector, d)).orElseGet(() -> new VectorResult(vector.id(), VectorResult.PASS, ""));
    }

    /** An attack passes when the server refuses the defective call and still serves a correct one after. */
    static VectorResult runAttack(Bench client, Vector vector) {
        if (!(client instanceof AttackClient attacker)) {
            return new VectorResult(vector.id(), VectorResult.ERROR, "the client implements no attacks");
        }
        String refusal;
        try {
            refusal = attacker.attack(vector.attack(), vector.op(), vector.decodeArgs());
        } catch (Exception | Error e) {
            return new VectorResult(vector.id(), VectorResult.ERROR, describe(e));
        }
        if (refusal == null) {
            return fail(vector, "the server answered the defective call");
        }
        try {
            attacker.pingAfterAttack();
        } catch (Exception | Error e) {
            return fail(vector, "refused (" + refusal + "), but then stopped serving: " + describe(e));
        }
        return new VectorResult(vector.id(), VectorResult.PASS, cut(refusal));
    }

    /** A session vector: its script on remote objects (CONTRACT.md#objects); a client without them is an error. */
    private static VectorResult runSession(Bench client, Vector vector) {
        if (!(client instanceof CalculatorClient)) {
            return new VectorResult(vector.id(), VectorResult.ERROR, CalculatorSessions.NO_REMOTE_OBJECTS);
        }
        try {
            String difference = CalculatorSessions.runScript(vector.script(), (CalculatorClient) client, client);
            return difference == null ? new VectorResult(vector.id(), VectorResult.PASS, "") : fail(vector, difference);
        } catch (Exception | Error e) {
            return new VectorResult(vector.id(), VectorResult.ERROR, describe(e));
        }
    }

    private static Object expectation(Vector vector, Object[] args) throws Exception {
        if (vector.expectedError() != null) {
            return null;
        }
        if (vector.expectContract()) {
            return Answers.contractAnswer(vector.op(), args);
        }
        return args.length == 0 ? null : args[0];
    }

    private static VectorResult judgeError(Vector vector, BenchError raised) {
        BenchError expected = vector.expectedError();
        if (expected == null) {
            return fail(vector, "result: expected an answer, raised " + raised);
        }
        Optional<String> difference = Comparison.EXACT.firstDifference("error.code", expected.code(), raised.code())
                .or(() -> Comparison.EXACT.firstDifference("error.message", expected.getMessage(), raised.getMessage()));
        return difference.map(d -> fail(vector, d)).orElseGet(() -> new VectorResult(vector.id(), VectorResult.PASS, ""));
    }

    private static VectorResult fail(Vector vector, String reason) {
        return new VectorResult(vector.id(), VectorResult.FAIL, cut(reason));
    }

    /** An exception as one line: its type and message, cut to a readable length. */
    public static String describe(Throwable e) {
        String message = e.getMessage();
        return cut(e.getClass().getSimpleName() + (message == null ? "" : ": " + message.replaceAll("\\s+", " ")));
    }

    private static String cut(String text) {
        return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "...";
    }
}
