/**
 * What every protocol module shares, in sub-packages by job: {@code contract} (the contract in Java and the
 * protocol registry), {@code reference} (the contract's behaviour and generator), {@code adapter} (what a
 * protocol module implements: its client and its server), {@code mapping} (a family's type mapping and the
 * proxy and caller written once over the operation table), {@code conformance} (vectors, workloads, value
 * decoding and comparison) and {@code harness} (the command line and the command loop of runner/PROTOCOL.md).
 * Only {@link org.rpcmatrix.core.BenchError} stays here: RMI and HttpInvoker serialize it, so its class name
 * is on the wire.
 */
package org.rpcmatrix.core;
