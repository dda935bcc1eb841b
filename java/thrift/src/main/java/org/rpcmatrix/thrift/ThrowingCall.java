package org.rpcmatrix.thrift;

/** A call that may throw anything: the handler and the client each map its errors at one place. */
@FunctionalInterface
interface ThrowingCall<T> {
    T call() throws Exception;
}
