/**
 * What a client is judged by (CONTRACT.md#vectors, #workloads): the idl files it reads, the vectors and their
 * runner, the workloads, value decoding, the expected answers and the comparison rules, and the session scripts
 * of the remote objects.
 */
package org.rpcmatrix.core.conformance;
