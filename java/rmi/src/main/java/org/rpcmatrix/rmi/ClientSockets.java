package org.rpcmatrix.rmi;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.rpcmatrix.core.adapter.ClientOptions;

/**
 * The client sockets of every stub: TCP_NODELAY set explicitly, then TLS when the profile names a registered
 * SSLSocketFactory. The factory travels inside each stub by serialization, so it holds only the profile's
 * name; the key material stays in this process ({@link #register}). RMI pools connections per endpoint and
 * factory (equals), so a distinct profile name also means distinct connections (what the attacks need). Each
 * socket counts the distributed GC's bytes apart ({@link BackgroundBytes}).
 */
final class ClientSockets implements RMIClientSocketFactory, Serializable {
    private static final long serialVersionUID = 1L;
    static final String PLAIN = "plain";
    static final String TLS = "tls";
    /**
     * The name the client verifies on every server certificate (ClientOptions.tlsServerName: the set-up's, or a
     * server elsewhere's); servers may sit at any address. Static: the factories arrive inside the server's stubs.
     */
    private static volatile String serverName = ClientOptions.SET_UP_SERVER_NAME;

    private static final Map<String, SSLSocketFactory> FACTORIES = new ConcurrentHashMap<>();

    private final String profile;

    ClientSockets(String profile) {
        this.profile = profile;
    }

    /** Makes {@code profile} a TLS profile of this process with {@code factory}'s keys and trust. */
    static void register(String profile, SSLSocketFactory factory) {
        FACTORIES.put(profile, factory);
    }

    static void verifyName(String name) {
        serverName = name;
    }

    static SSLSocketFactory registered(String profile) {
        return FACTORIES.get(profile);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket socket = BackgroundBytes.countedSocket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port));
        if (PLAIN.equals(profile)) {
            return socket;
        }
        SSLSocketFactory tls = FACTORIES.get(profile);
        if (tls == null) {
            socket.close();
            throw new IOException("no TLS keys registered for client socket profile " + profile);
        }
        // Layered over the connected socket, named for the certificate: the client verifies the server's
        // chain against the CA and the server's name, not the address it dials.
        String name = serverName;
        SSLSocket ssl = (SSLSocket) tls.createSocket(socket, name, port, true);
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setServerNames(List.of(new SNIHostName(name)));
        ssl.setSSLParameters(parameters);
        ssl.startHandshake();
        return ssl;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClientSockets sockets && sockets.profile.equals(profile);
    }

    @Override
    public int hashCode() {
        return profile.hashCode();
    }
}
