package org.rpcmatrix.core;

/** A protocol's client: the contract's operations over one persistent connection, closed at the end. */
public interface BenchClient extends Bench, AutoCloseable {
}
