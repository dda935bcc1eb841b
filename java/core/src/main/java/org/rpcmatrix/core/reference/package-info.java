/**
 * The contract's behaviour: {@link org.rpcmatrix.core.reference.ReferenceBench} (what every server answers and
 * every client expects), the calculators of the remote objects, the generator (SplitMix64) and digest (FNV-1a 64)
 * of idl/golden.json, and the test-only injected slowdown.
 */
package org.rpcmatrix.core.reference;
