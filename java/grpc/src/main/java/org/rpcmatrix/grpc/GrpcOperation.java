package org.rpcmatrix.grpc;

import io.grpc.MethodDescriptor;
import java.util.function.Function;
import org.rpcmatrix.core.contract.Operation;

/**
 * One unary operation's gRPC type mapping: its method and the four conversions between the contract's Java
 * values (see {@link org.rpcmatrix.core.conformance.Values}) and the messages of idl/bench.proto. The server adapter and
 * the client adapter are written once over these.
 *
 * @param request   client: the arguments as the request message
 * @param arguments server: the request message as the arguments
 * @param response  server: the result (null for void) as the response message
 * @param result    client: the response message as the result (null for void)
 */
record GrpcOperation<Q, R>(Operation op, MethodDescriptor<Q, R> method, Function<Object[], Q> request,
        Function<Q, Object[]> arguments, Function<Object, R> response, Function<R, Object> result) {
}
