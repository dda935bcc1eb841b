package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URL;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.testing.Connections;

/** The client's --transport option and each of the three transports against this module's server. */
class ClientTransportTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private static XmlRpcServer server;

    @BeforeAll
    static void start() throws Exception {
        server = XmlRpcServer.start(new ServerOptions(ProtocolRegistry.load(IDL).require(Main.FAMILY),
                "127.0.0.1", 0, IDL, null, Map.of()));
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    @Test
    void theTransportFlagIsReadAndTakenOut() {
        String[] args = {"client", "--protocol", "xmlrpc", "--transport", "lite", "--port", "1"};
        assertEquals(ClientTransport.LITE, ClientTransport.fromArgs(args));
        assertArrayEquals(new String[] {"client", "--protocol", "xmlrpc", "--port", "1"},
                ClientTransport.withoutFlag(args));
        assertEquals(ClientTransport.SUN, ClientTransport.fromArgs(new String[] {"client"}));
        assertThrows(IllegalArgumentException.class,
                () -> ClientTransport.fromArgs(new String[] {"--transport", "carrier-pigeon"}));
    }

    @ParameterizedTest
    @EnumSource(ClientTransport.class)
    void everyTransportCarriesCallsAndFaults(ClientTransport transport) throws Exception {
        ClientOptions options = new ClientOptions(ProtocolRegistry.load(IDL).require(Main.FAMILY), "127.0.0.1",
                server.port(), IDL, null);
        try (XmlRpcClient client = XmlRpcClient.connect(options, transport)) {
            client.ping();
            assertEquals(Long.MIN_VALUE, client.echoInt64(Long.MIN_VALUE));
            assertEquals("x".repeat(100_000), client.echoString("x".repeat(100_000)));
            assertEquals(3, client.getItems(3).size());
            BenchError error = assertThrows(BenchError.class, () -> client.fail(42, "<&> boom"));
            assertEquals(42, error.code());
            assertEquals("<&> boom", error.getMessage());
        }
    }

    /**
     * A commons client's close closes its connections (the load command closes its clients after the load and
     * expects their connections gone): before, they stayed open until the client's manager was collected.
     */
    @Test
    void closingACommonsClientClosesItsConnection() throws Exception {
        XmlRpcServer own = XmlRpcServer.start(new ServerOptions(ProtocolRegistry.load(IDL).require(Main.FAMILY),
                "127.0.0.1", 0, IDL, null, Map.of()));
        try {
            ClientOptions options = new ClientOptions(ProtocolRegistry.load(IDL).require(Main.FAMILY), "127.0.0.1",
                    own.port(), IDL, null);
            XmlRpcClient client = XmlRpcClient.connect(options, ClientTransport.COMMONS);
            client.ping();
            assertEquals(1, Connections.to(own.port()));
            client.close();
            long open = Connections.to(own.port());
            for (int i = 0; i < 40 && open > 0; i++) {
                Thread.sleep(50);
                open = Connections.to(own.port());
            }
            assertEquals(0, open, "connections still established after close");
        } finally {
            own.stop();
        }
    }

    /** The commons transport takes the proxy HttpURLConnection would: the JDK's properties, nonProxyHosts honoured. */
    @Test
    void theCommonsProxyIsTheJdksChoice() throws Exception {
        URL server = new URL("http", "198.19.0.2", 8080, XmlRpcServer.PATH);
        System.setProperty("http.proxyHost", "198.19.0.1");
        System.setProperty("http.proxyPort", "3128");
        try {
            System.setProperty("http.nonProxyHosts", "");
            assertEquals(InetSocketAddress.createUnresolved("198.19.0.1", 3128), ClientTransport.proxyOf(server).address());
            System.setProperty("http.nonProxyHosts", "localhost|198.19.*");
            assertEquals(Proxy.NO_PROXY, ClientTransport.proxyOf(server));
        } finally {
            System.clearProperty("http.proxyHost");
            System.clearProperty("http.proxyPort");
            System.clearProperty("http.nonProxyHosts");
        }
        assertEquals(Proxy.NO_PROXY, ClientTransport.proxyOf(server));
    }
}
