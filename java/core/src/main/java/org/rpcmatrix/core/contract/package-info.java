/**
 * The contract (idl/contract.json) in Java: {@code Bench} and the operation table {@code Operation} (both
 * generated at build time from contract.json by java/codegen, into target/), the structs, the limits every
 * receiver keeps ({@link org.rpcmatrix.core.contract.ArrayBudget}) and the protocol registry
 * (idl/protocols.json).
 */
package org.rpcmatrix.core.contract;
