package org.rpcmatrix.core.adapter;

/**
 * A client adapter whose protocol carries remote objects (capability remote-references, CONTRACT.md#objects):
 * calculators created through the server's CalculatorFactory. A calculator is whatever reference the
 * protocol hands back (a stub, a proxy); the session scripts only pass it around.
 */
public interface CalculatorClient {
    /** A new calculator with a total of 0, through the server's CalculatorFactory. */
    Object create() throws Exception;

    long add(Object calculator, long n) throws Exception;

    void clear(Object calculator) throws Exception;

    long total(Object calculator) throws Exception;

    /** Unexports the calculator on the server: no further call on it succeeds. */
    void release(Object calculator) throws Exception;

    /** Whether {@code e} is the protocol's "no such object" refusal (RMI NoSuchObjectException, CORBA OBJECT_NOT_EXIST). */
    boolean isNoSuchObject(Exception e);
}
