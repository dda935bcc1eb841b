package org.rpcmatrix.core.harness;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.ClientFactory;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Bench;

/**
 * A client whose every contract call is made on a new connection ({@code --connection per-call},
 * runner/PROTOCOL.md: connect): the factory's client made, called once and closed, all inside the timed call, so the
 * handshake is timed where a client that connects per call pays it. A stack that pools connections below its client
 * (HttpURLConnection's keep-alive cache) is told not to by its manifest's settings for the variant.
 */
final class PerCallClient {
    private PerCallClient() {
    }

    static BenchClient of(ClientFactory factory, ClientOptions target) {
        return (BenchClient) Proxy.newProxyInstance(BenchClient.class.getClassLoader(),
                new Class<?>[] {BenchClient.class}, (proxy, method, args) -> call(factory, target, method, args));
    }

    private static Object call(ClientFactory factory, ClientOptions target, Method method, Object[] args)
            throws Throwable {
        if (method.getDeclaringClass() != Bench.class) {
            return switch (method.getName()) {
                case "facts" -> Map.of();
                case "sharesConnection" -> false;
                case "close" -> null; // nothing outlives a call
                default -> throw new UnsupportedOperationException(method.getName() + " on a client per call");
            };
        }
        try (BenchClient client = factory.connect(target)) {
            return method.invoke(client, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
