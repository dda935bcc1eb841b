package org.rpcmatrix.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.rpcmatrix.core.BenchError;

/** corba-ior in this process over loopback: IOR files, a call, the user exception, a released calculator. */
class CorbaRoundTripTest {
    @Test
    void callsGoThroughTheIorFiles(@TempDir Path cell) throws Exception {
        CorbaServer server = CorbaServer.start("127.0.0.1", 0, false, cell);
        try {
            assertTrue(Files.exists(cell.resolve(Orbs.BENCH_IOR)));
            assertTrue(server.port() > 0);
            CorbaClient client = CorbaClient.connect("127.0.0.1", server.port(), false, cell);
            try {
                assertEquals("héllo 😀", client.echoString("héllo 😀"));
                assertEquals((byte) -1, client.echoInt8((byte) -1));
                BenchError error = assertThrows(BenchError.class, () -> client.fail(7, "seven"));
                assertEquals(7, error.code());
                assertEquals("seven", error.getMessage());
                Object calculator = client.create();
                assertEquals(Long.MAX_VALUE, client.add(calculator, Long.MAX_VALUE));
                assertEquals(Long.MIN_VALUE, client.add(calculator, 1));
                client.release(calculator);
                OBJECT_NOT_EXIST gone = assertThrows(OBJECT_NOT_EXIST.class, () -> client.total(calculator));
                assertTrue(client.isNoSuchObject(gone));
                client.ping();
            } finally {
                client.close();
            }
        } finally {
            server.stop();
        }
    }
}
