package org.rpcmatrix.xmlrpc;

import org.apache.xmlrpc.XmlRpcException;
import org.apache.xmlrpc.XmlRpcHandler;
import org.apache.xmlrpc.XmlRpcRequest;
import org.apache.xmlrpc.server.XmlRpcHandlerMapping;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Operation;

/**
 * Maps the contract's operation names, exactly as written (no "Bench." prefix, which the library's
 * reflective mappings would add), to the contract's behaviour, converting values per {@link XmlRpcMapping}.
 */
final class BenchHandlerMapping implements XmlRpcHandlerMapping {
    /** XML-RPC's conventional fault codes (specs.xmlrpc.com/spec, "fault codes" interoperability note). */
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;

    private final Bench bench;

    BenchHandlerMapping(Bench bench) {
        this.bench = bench;
    }

    @Override
    public XmlRpcHandler getHandler(String name) throws XmlRpcException {
        Operation op = Operation.byName(name);
        if (op == null || op == Operation.RANDOM_DOUBLES_STREAM) {
            // The library's XmlRpcNoSuchHandlerException carries fault code 0.
            throw new XmlRpcException(METHOD_NOT_FOUND, "method not found: " + name);
        }
        return request -> execute(op, request);
    }

    private Object execute(Operation op, XmlRpcRequest request) throws XmlRpcException {
        int count = op.paramTypes().size();
        if (request.getParameterCount() != count) {
            throw new XmlRpcException(INVALID_PARAMS, op.contractName() + " takes " + count + " parameters, got "
                    + request.getParameterCount());
        }
        Object[] args = new Object[count];
        try {
            for (int i = 0; i < count; i++) {
                args[i] = XmlRpcMapping.fromWire(op.paramTypes().get(i), request.getParameter(i));
            }
        } catch (XmlRpcMapping.CarriageException e) {
            throw new XmlRpcException(INVALID_PARAMS, e.getMessage());
        }
        try {
            return XmlRpcMapping.toWire(op.returnType(), op.invoke(bench, args));
        } catch (BenchError e) {
            throw new XmlRpcException(e.code(), e.getMessage());
        } catch (Exception e) {
            throw new XmlRpcException(INTERNAL_ERROR, String.valueOf(e.getMessage()), e);
        }
    }
}
