package org.rpcmatrix.core.mapping;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.rpcmatrix.core.contract.Operation;

/**
 * The client side of a family whose library hands out an implementation of a Java interface (a Caucho or
 * Spring proxy, an RMI stub, a CORBA stub, a JAX-WS proxy): calls an operation on it by {@link Operation},
 * converting arguments with the family's {@link WireMapping#toWire}, the result with
 * {@link WireMapping#fromWire}, and what the call raised with {@link WireMapping#error}. An
 * {@link OperationClient}'s {@code call} is then one line. Each operation's method and converters are found
 * once, here: a call costs an array index, the conversions and one {@link Method#invoke}.
 */
public final class OperationCaller<T> {
    private record Call(Method method, WireMapping.Converter[] params, WireMapping.Converter result) {
    }

    private final Class<T> api;
    private final WireMapping mapping;
    private final Call[] calls = new Call[Operation.values().length];

    private OperationCaller(Class<T> api, WireMapping mapping) {
        this.api = api;
        this.mapping = mapping;
        for (Method method : api.getMethods()) {
            Operation op = OperationProxy.operation(api, method);
            WireMapping.Converter[] params = new WireMapping.Converter[op.paramTypes().size()];
            for (int i = 0; i < params.length; i++) {
                params[i] = mapping.toWire(op.paramTypes().get(i));
            }
            calls[op.id()] = new Call(method, params, mapping.fromWire(op.returnType()));
        }
    }

    /** Calls over {@code api}, whose methods are named as the contract's operations. */
    public static <T> OperationCaller<T> over(Class<T> api, WireMapping mapping) {
        return new OperationCaller<>(api, mapping);
    }

    /** Calls {@code op} on {@code target}; the result in the contract's Java types (null for void). */
    public Object call(T target, Operation op, Object[] args) throws Exception {
        Call call = calls[op.id()];
        if (call == null) {
            throw new UnsupportedOperationException(op.contractName() + " is not an operation of "
                    + api.getSimpleName());
        }
        WireMapping.Converter[] params = call.params;
        Object[] wire = new Object[params.length];
        for (int i = 0; i < params.length; i++) {
            wire[i] = params[i].convert(args[i]);
        }
        Object result;
        try {
            result = call.method.invoke(target, wire);
        } catch (InvocationTargetException e) {
            Throwable raised = e.getCause();
            if (raised instanceof Error error) {
                throw error;
            }
            throw mapping.error((Exception) raised);
        }
        return call.result.convert(result);
    }
}
