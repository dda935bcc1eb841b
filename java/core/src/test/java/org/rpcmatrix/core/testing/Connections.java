package org.rpcmatrix.core.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.harness.ClientSession;

/**
 * The TCP connections a client holds to a server, as the kernel lists them: for the protocol modules' tests of the
 * load command (how many connections its calls in flight took).
 */
public final class Connections {
    private Connections() {
    }

    /**
     * Established TCP connections to {@code port} (their client ends) in this network namespace, from
     * /proc/net/tcp and tcp6; -1 where there is no /proc/net (not Linux).
     */
    public static long to(int port) throws IOException {
        long count = 0;
        boolean listed = false;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            listed = true;
            for (String line : Files.readAllLines(path)) {
                String[] fields = line.trim().split("\\s+");
                // sl local_address rem_address st ...: st 01 is ESTABLISHED, an address is hex ADDRESS:PORT
                if (fields.length > 3 && fields[3].equals("01") && fields[2].contains(":")
                        && Integer.parseInt(fields[2].substring(fields[2].indexOf(':') + 1), 16) == port) {
                    count++;
                }
            }
        }
        return listed ? count : -1;
    }

    /**
     * Answers the {@code load} command on another thread, adding {@code "connections_seen"}: the most connections
     * to {@code port} listed while it ran (sampled every 20 ms; -1 without /proc/net), and
     * {@code "connections_added"}: that less those listed just before it (the test class's other connections to
     * its server, which an earlier test may have left open, are not the command's).
     */
    public static ObjectNode seenDuring(ClientSession session, String command, int port) throws Exception {
        long before = to(port);
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> session.handle(command));
        long most = -1;
        while (!answer.isDone()) {
            most = Math.max(most, to(port));
            Thread.sleep(20);
        }
        return ((ObjectNode) Json.MAPPER.readTree(answer.get())).put("connections_seen", most)
                .put("connections_added", most - before);
    }
}
