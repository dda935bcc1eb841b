package org.rpcmatrix.corba;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * A real CORBA naming service (Debian's omniNames) run as a child process in a session and process group of its
 * own (setsid), listening on the cell's address, its data under {cell}; stopped with the server.
 */
final class NamingService implements AutoCloseable {
    private static final long START_DEADLINE_MS = 15_000;

    private final Process process;
    private final int port;
    private final NamingContextExt root;

    private NamingService(Process process, int port, NamingContextExt root) {
        this.process = process;
        this.port = port;
        this.root = root;
    }

    /** Starts omniNames on a free port of {@code host} and waits until it answers. */
    static NamingService start(ORB orb, String host, Path cell) throws Exception {
        int port = freePort(host);
        Path data = Files.createDirectories(cell.resolve("naming"));
        ProcessBuilder builder = new ProcessBuilder(List.of("setsid", "omniNames", "-start", Integer.toString(port),
                "-datadir", data.toString(), "-ORBendPoint", "giop:tcp:" + host + ":" + port))
                .redirectErrorStream(true)
                .redirectOutput(data.resolve("omniNames.log").toFile());
        Process process = builder.start();
        String corbaloc = "corbaloc::" + hostForUrl(host) + ":" + port + "/NameService";
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_DEADLINE_MS);
        while (true) {
            try {
                NamingContextExt root = NamingContextExtHelper.narrow(orb.string_to_object(corbaloc));
                return new NamingService(process, port, root);
            } catch (org.omg.CORBA.SystemException e) {
                if (!process.isAlive()) {
                    throw new IOException("omniNames exited with status " + process.exitValue() + ", see "
                            + data.resolve("omniNames.log"));
                }
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IOException("omniNames did not answer on " + corbaloc + " within " + START_DEADLINE_MS
                            + " ms: " + e);
                }
                Thread.sleep(50);
            }
        }
    }

    static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    private static int freePort(String host) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            return probe.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    void bind(String name, org.omg.CORBA.Object reference) throws Exception {
        root.rebind(root.to_name(name), reference);
    }

    /** SIGTERM to the child, then SIGKILL if it has not gone within two seconds. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(1, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
