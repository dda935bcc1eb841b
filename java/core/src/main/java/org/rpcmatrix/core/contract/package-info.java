/**
 * The contract (idl/contract.json) in Java: {@code Bench}, the operation table {@code Operation}, the structs,
 * the limits every receiver keeps ({@link org.rpcmatrix.core.contract.ArrayBudget}) and the protocol registry
 * (idl/protocols.json).
 */
package org.rpcmatrix.core.contract;
