package org.rpcmatrix.core;

/** The contract's declared error: a code and a message, carried by each protocol's own error mechanism. */
public final class BenchError extends Exception {
    private static final long serialVersionUID = 1L;

    private final int code;

    public BenchError(int code, String message) {
        // No stack trace: this is an answer, not a bug, and servers raise it on the hot path.
        super(message, null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }

    @Override
    public String toString() {
        return "BenchError{code=" + code + ", message=" + getMessage() + "}";
    }
}
