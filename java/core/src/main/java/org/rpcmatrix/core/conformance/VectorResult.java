package org.rpcmatrix.core.conformance;

/** The outcome of one vector: pass, fail, unsupported or error, with a reason unless it passed. */
public record VectorResult(String id, String status, String reason) {
    public static final String PASS = "pass";
    public static final String FAIL = "fail";
    public static final String UNSUPPORTED = "unsupported";
    public static final String ERROR = "error";
}
