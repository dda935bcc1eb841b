package org.rpcmatrix.core.mapping;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Bench;
import org.rpcmatrix.core.contract.Operation;

/**
 * The server side of a family whose library dispatches on a Java interface (Hessian and Burlap, JSON-RPC,
 * HttpInvoker, RMI, CORBA's tie, SOAP's service bean): one {@link Proxy} of that interface, written once over the
 * operation table instead of a class forwarding each operation by hand. A call converts its arguments with the
 * family's {@link WireMapping#fromWire}, calls {@link Operation#invoke} on the contract's behaviour, and converts
 * the result with {@link WireMapping#toWire}; BenchError becomes the family's {@link WireMapping#fault}.
 *
 * <p>The interface's methods are named as the contract's operations and take their parameters in the
 * contract's order. Everything per method (its operation and converters) is looked up once, when the proxy is
 * made: a call costs one identity lookup of its {@link Method} plus the conversions.
 */
public final class OperationProxy implements InvocationHandler {
    private static final Object[] NO_ARGS = {};

    /** What a method of the interface does: its operation, converters and the checked exceptions it may throw. */
    private record Handler(Operation op, WireMapping.Converter[] params, WireMapping.Converter result,
            Class<?>[] declared) {
    }

    private final Class<?> api;
    private final Bench bench;
    private final WireMapping mapping;
    private final Map<Method, Handler> handlers;
    /**
     * The handlers by the very Method objects Proxy passes (the proxy class holds one per method): an identity
     * lookup, where {@link #handlers} hashes and compares the Method by name and parameter types (about 15 ns
     * a call). Filled on first use of each method, copied on write, never changed once published.
     */
    private volatile Map<Method, Handler> byIdentity = new IdentityHashMap<>();

    private OperationProxy(Class<?> api, Bench bench, WireMapping mapping) {
        this.api = api;
        this.bench = bench;
        this.mapping = mapping;
        this.handlers = handlers(api, mapping);
    }

    /** An implementation of {@code api} that answers every call with {@code bench}, through {@code mapping}. */
    public static <T> T serve(Class<T> api, Bench bench, WireMapping mapping) {
        if (!api.isInterface()) {
            throw new IllegalArgumentException(api.getName() + " is not an interface");
        }
        return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api},
                new OperationProxy(api, bench, mapping)));
    }

    private static Map<Method, Handler> handlers(Class<?> api, WireMapping mapping) {
        Map<Method, Handler> handlers = new HashMap<>();
        for (Method method : api.getMethods()) {
            Operation op = operation(api, method);
            WireMapping.Converter[] params = new WireMapping.Converter[op.paramTypes().size()];
            for (int i = 0; i < params.length; i++) {
                params[i] = mapping.fromWire(op.paramTypes().get(i));
            }
            handlers.put(method, new Handler(op, params, mapping.toWire(op.returnType()), method.getExceptionTypes()));
        }
        return Map.copyOf(handlers);
    }

    /** The operation a method of a family's interface stands for: same name, same number of parameters. */
    static Operation operation(Class<?> api, Method method) {
        Operation op = Operation.byName(method.getName());
        if (op == null) {
            throw new IllegalArgumentException(api.getName() + "." + method.getName()
                    + " is not an operation of the contract");
        }
        if (method.getParameterCount() != op.paramTypes().size()) {
            throw new IllegalArgumentException(api.getName() + "." + method.getName() + " takes "
                    + method.getParameterCount() + " parameters, the contract's operation " + op.paramTypes().size());
        }
        return op;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Handler handler = byIdentity.get(method);
        if (handler == null) {
            handler = handlers.get(method);
            if (handler == null) {
                return objectMethod(proxy, method, args);
            }
            remember(method, handler);
        }
        try {
            WireMapping.Converter[] params = handler.params;
            Object[] values = params.length == 0 ? NO_ARGS : new Object[params.length];
            for (int i = 0; i < params.length; i++) {
                values[i] = params[i].convert(args[i]);
            }
            Object result;
            try {
                result = handler.op.invoke(bench, values);
            } catch (BenchError e) {
                throw mapping.fault(e);
            }
            return handler.result.convert(result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            // A checked exception the method does not declare would reach the library as Proxy's
            // UndeclaredThrowableException, which says nothing: it goes as IllegalStateException, with its cause.
            for (Class<?> declared : handler.declared) {
                if (declared.isInstance(e)) {
                    throw e;
                }
            }
            throw new IllegalStateException(e);
        }
    }

    private synchronized void remember(Method method, Handler handler) {
        Map<Method, Handler> copy = new IdentityHashMap<>(byIdentity);
        copy.put(method, handler);
        byIdentity = copy;
    }

    /** equals, hashCode and toString, which Proxy also sends here: identity, as for any object. */
    private Object objectMethod(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return api.getName() + " over the operation table";
            default:
                throw new UnsupportedOperationException(method.toString());
        }
    }
}
