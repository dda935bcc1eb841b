package org.rpcmatrix.rmi;

import java.net.InetAddress;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.mapping.OperationProxy;
import org.rpcmatrix.core.reference.InjectedSpin;
import org.rpcmatrix.javaserial.JavaSerialMapping;

/**
 * An RMI registry created in this process on the cell's port, with Bench and CalculatorFactory bound under
 * those names. The registry and every exported object share that one port (same port, same socket factories:
 * RMI then shares the listener); each incoming connection gets a thread of RMI's own (thread per connection).
 */
final class RmiServer implements RunningServer {
    /** Exports an object on the server's port with its socket factories and the deserialization filter. */
    interface Exporter {
        Remote export(Remote object) throws RemoteException;
    }

    private final Registry registry;
    private final List<Remote> servants;
    private final int port;
    private final boolean tls;

    private RmiServer(Registry registry, List<Remote> servants, int port, boolean tls) {
        this.registry = registry;
        this.servants = servants;
        this.port = port;
        this.tls = tls;
    }

    static RunningServer start(ServerOptions options) throws Exception {
        return start(options.host(), options.port(), isTls(options.protocol().variant("security"))
                ? TlsContexts.server(options.secrets()) : null);
    }

    static boolean isTls(String security) {
        return "mutual-tls".equals(security);
    }

    /** {@code port} 0: the system chooses; the registry's port is then read from the listener. */
    static RmiServer start(String host, int port, SSLContext tls) throws Exception {
        // Stubs carry the address their clients dial: the cell's address, not whatever the host name resolves to.
        System.setProperty("java.rmi.server.hostname", host);
        ServerSockets serverSockets = new ServerSockets(InetAddress.getByName(host), tls);
        ClientSockets clientSockets = new ClientSockets(tls == null ? ClientSockets.PLAIN : ClientSockets.TLS);
        Registry registry = LocateRegistry.createRegistry(port, clientSockets, serverSockets);
        int bound = serverSockets.boundPort();
        Exporter exporter = object -> UnicastRemoteObject.exportObject(object, bound, clientSockets, serverSockets,
                SerialFilter.INSTANCE);
        RemoteBench bench =
                OperationProxy.serve(RemoteBench.class, InjectedSpin.served(), JavaSerialMapping.INSTANCE);
        CalculatorFactoryServant factory = new CalculatorFactoryServant(exporter);
        registry.rebind("Bench", exporter.export(bench));
        registry.rebind("CalculatorFactory", exporter.export(factory));
        return new RmiServer(registry, List.of(bench, factory), bound, tls != null);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("registry", "in-process", "tls", tls ? "mutual" : "none");
    }

    @Override
    public void stop() throws NoSuchObjectException {
        for (Remote servant : servants) {
            UnicastRemoteObject.unexportObject(servant, true);
        }
        UnicastRemoteObject.unexportObject(registry, true);
    }
}
