package org.rpcmatrix.hessian;

import java.io.Serializable;

/**
 * The contract's BenchError (or a rejected argument) on its way to a fault; see {@link FaultDetails}, which
 * writes it as the detail map {code, message}: its class name never travels.
 */
public final class WireFault extends Exception implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int code;

    public WireFault(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
