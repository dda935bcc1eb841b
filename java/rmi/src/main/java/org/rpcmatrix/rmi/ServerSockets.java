package org.rpcmatrix.rmi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.server.RMIServerSocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The listener of the registry and every exported object (one port for all): bound to the cell's address
 * exactly, TCP_NODELAY on each accepted socket, and with an SSLContext every connection is TLS in server mode
 * with a client certificate required. The TLS layer is put over the accepted socket, so the handshake runs on
 * RMI's connection thread, never in the accept loop.
 */
final class ServerSockets implements RMIServerSocketFactory {
    private final InetAddress host;
    private final SSLContext tls;
    private volatile int boundPort;

    ServerSockets(InetAddress host, SSLContext tls) {
        this.host = host;
        this.tls = tls;
    }

    int boundPort() {
        return boundPort;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        ServerSocket server = new ServerSocket() {
            @Override
            public Socket accept() throws IOException {
                Socket socket = super.accept();
                socket.setTcpNoDelay(true);
                if (tls == null) {
                    return socket;
                }
                SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(socket, null, true);
                ssl.setUseClientMode(false);
                ssl.setNeedClientAuth(true);
                return ssl;
            }
        };
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(host, port), 128);
        boundPort = server.getLocalPort();
        return server;
    }
}
