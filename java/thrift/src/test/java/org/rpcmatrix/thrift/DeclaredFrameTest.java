package org.rpcmatrix.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;

/** A frame declared over the server's limit closes its connection at once; the server goes on serving. */
class DeclaredFrameTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    @ParameterizedTest
    @ValueSource(ints = {ThriftServer.MAX_FRAME_BYTES + 1, 64 << 20})
    void anOversizedFrameClosesItsConnection(int declared) throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require("thrift-binary");
        Wire wire = Wire.of(protocol);
        RunningServer server = ThriftServer.start(new ServerOptions(protocol, "127.0.0.1", 0, IDL, null, Map.of()), wire);
        try {
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(5000);
                OutputStream out = socket.getOutputStream();
                out.write(new byte[] {(byte) (declared >>> 24), (byte) (declared >>> 16), (byte) (declared >>> 8),
                    (byte) declared, 1, 2, 3, 4});
                out.flush();
                InputStream in = socket.getInputStream();
                // Closed without an answer; a server waiting for the declared bytes would time out here instead.
                assertEquals(-1, in.read());
            }
            try (BenchClient client = ThriftClient.connect(
                    new ClientOptions(protocol, "127.0.0.1", server.port(), IDL, null), wire)) {
                client.ping();
            }
        } finally {
            server.stop();
        }
    }
}
