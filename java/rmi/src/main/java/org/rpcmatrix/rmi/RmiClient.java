package org.rpcmatrix.rmi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.ConnectIOException;
import java.rmi.MarshalledObject;
import java.rmi.NoSuchObjectException;
import java.rmi.NotBoundException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.rpcmatrix.core.adapter.AttackClient;
import org.rpcmatrix.core.adapter.BackgroundTraffic;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.CalculatorClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ConnectFigures;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationCaller;
import org.rpcmatrix.core.mapping.OperationClient;
import org.rpcmatrix.javaserial.JavaSerialMapping;

/**
 * Stubs looked up in the server's RMI registry; calls go over RMI's pooled connections (one reused connection
 * for one caller; an idle one closes after sun.rmi.transport.connectionTimeout, 15 s by default).
 */
final class RmiClient extends OperationClient implements CalculatorClient, AttackClient, ConnectFigures,
        BackgroundTraffic {
    private static final OperationCaller<RemoteBench> CALLS =
            OperationCaller.over(RemoteBench.class, JavaSerialMapping.INSTANCE);
    private static final String NO_CERTIFICATE = "no-client-certificate";
    private static final String UNTRUSTED_CERTIFICATE = "untrusted-client-certificate";

    private final String host;
    private final int port;
    private final boolean tls;
    private final RemoteBench bench;
    private final RemoteCalculatorFactory calculators;
    private final long stubInstantiationNanos;
    private final AtomicInteger freshProfiles = new AtomicInteger();

    private RmiClient(String host, int port, boolean tls, RemoteBench bench, RemoteCalculatorFactory calculators,
            long stubInstantiationNanos) {
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.bench = bench;
        this.calculators = calculators;
        this.stubInstantiationNanos = stubInstantiationNanos;
    }

    static BenchClient connect(ClientOptions options) throws Exception {
        boolean tls = RmiServer.isTls(options.protocol().variant("security"));
        if (tls) {
            registerTlsProfiles(options.secrets());
            ClientSockets.verifyName(options.tlsServerName());
        }
        return connect(options.host(), options.port(), tls);
    }

    /** The client's keys under the profile the server's stubs name, and the attacks' defective keys. */
    static void registerTlsProfiles(Path secrets) throws IOException, GeneralSecurityException {
        ClientSockets.register(ClientSockets.TLS, TlsContexts.client(secrets, "client.p12").getSocketFactory());
        ClientSockets.register(NO_CERTIFICATE, TlsContexts.client(secrets, null).getSocketFactory());
        // the attack's certificate of another CA: the set-up makes one; a user's own material may lack it, and then
        // that attack finds no keys for its profile and says so
        if (Files.exists(secrets.resolve("rogue-client.p12"))) {
            ClientSockets.register(UNTRUSTED_CERTIFICATE,
                    TlsContexts.client(secrets, "rogue-client.p12").getSocketFactory());
        }
    }

    static RmiClient connect(String host, int port, boolean tls) throws Exception {
        Registry registry = LocateRegistry.getRegistry(host, port,
                new ClientSockets(tls ? ClientSockets.TLS : ClientSockets.PLAIN));
        RemoteBench bench = (RemoteBench) registry.lookup("Bench");
        RemoteCalculatorFactory calculators = (RemoteCalculatorFactory) registry.lookup("CalculatorFactory");
        // Instantiation from an already-obtained stub (no registry): unmarshal a serialized stub and ping once.
        MarshalledObject<RemoteBench> held = new MarshalledObject<>(bench);
        long start = System.nanoTime();
        RemoteBench fromStub = held.get();
        fromStub.ping();
        long stubNanos = System.nanoTime() - start;
        return new RmiClient(host, port, tls, bench, calculators, stubNanos);
    }

    @Override
    public Map<String, Long> connectFigures() {
        return Map.of("instantiation_stub_ns", stubInstantiationNanos);
    }

    @Override
    public long[] backgroundBytes() {
        return BackgroundBytes.soFar();
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("registry_lookup", "Bench, CalculatorFactory");
    }

    /** The contract's operations: the stub's, values per {@link JavaSerialMapping}. */
    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        return CALLS.call(bench, op, args);
    }

    // Remote objects (CONTRACT.md#objects).

    @Override
    public Object create() throws Exception {
        return calculators.create();
    }

    @Override
    public long add(Object calculator, long n) throws Exception {
        return ((RemoteCalculator) calculator).add(n);
    }

    @Override
    public void clear(Object calculator) throws Exception {
        ((RemoteCalculator) calculator).clear();
    }

    @Override
    public long total(Object calculator) throws Exception {
        return ((RemoteCalculator) calculator).total();
    }

    @Override
    public void release(Object calculator) throws Exception {
        ((RemoteCalculator) calculator).release();
    }

    @Override
    public boolean isNoSuchObject(Exception e) {
        return e instanceof NoSuchObjectException;
    }

    // Attacks (rmi-tls): the registry lookup, a call served by the same listener and TLS checks as Bench,
    // made over a new connection with defective client keys.

    @Override
    public String attack(String attack, Operation op, Object[] args) throws Exception {
        if (!tls) {
            throw new IllegalStateException("attack " + attack + " needs rmi-tls");
        }
        if (!NO_CERTIFICATE.equals(attack) && !UNTRUSTED_CERTIFICATE.equals(attack)) {
            throw new IllegalArgumentException("unknown attack for RMI: " + attack);
        }
        try {
            Registry registry = LocateRegistry.getRegistry(host, port, new ClientSockets(attack));
            registry.lookup("Bench");
            return null;
        } catch (ConnectIOException e) {
            return refusal(e);
        }
    }

    /** What was seen: the TLS failure (alert or handshake) or the closed connection, innermost cause. */
    static String refusal(ConnectIOException e) throws ConnectIOException {
        Throwable cause = e;
        boolean tlsFailure = false;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
            tlsFailure |= cause instanceof SSLException;
        }
        if (!tlsFailure && !(cause instanceof IOException)) {
            throw e;
        }
        return "connection refused during TLS/JRMP set-up: " + cause.getClass().getSimpleName() + ": "
                + cause.getMessage();
    }

    /** A correct call on a new connection: a profile name never used before means a connection never used before. */
    @Override
    public void pingAfterAttack() throws Exception {
        String fresh = ClientSockets.TLS + "-after-attack-" + freshProfiles.incrementAndGet();
        ClientSockets.register(fresh, ClientSockets.registered(ClientSockets.TLS));
        Registry registry = LocateRegistry.getRegistry(host, port, new ClientSockets(fresh));
        try {
            ((RemoteBench) registry.lookup("Bench")).ping();
        } catch (NotBoundException e) {
            throw new IllegalStateException("Bench is no longer bound", e);
        }
    }

    @Override
    public void close() {
        // RMI closes its pooled connections when they idle out or the process exits; nothing to hold here.
    }
}
