/**
 * A family's type mapping ({@link org.rpcmatrix.core.mapping.WireMapping}) and what is written once over the
 * operation table with it: the server proxy of an interface a library dispatches on ({@link
 * org.rpcmatrix.core.mapping.OperationProxy}), the caller of such an interface ({@link
 * org.rpcmatrix.core.mapping.OperationCaller}) and the client whose protocol writes only {@code call(op, args)}
 * ({@code OperationClient}, generated at build time from idl/contract.json by java/codegen).
 */
package org.rpcmatrix.core.mapping;
