package org.rpcmatrix.core.harness;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerFactory;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.Json;

/**
 * A server process: {@code server --protocol P --host H --port N --idl DIR ...}. Prints the ready line once it accepts calls, and on
 * SIGTERM closes its listener and exits 0 within 5 seconds (runner/PROTOCOL.md#servers).
 */
public final class ServerMain {
    private static final long STOP_DEADLINE_MS = 4_000;

    private ServerMain() {
    }

    public static void run(String[] args, String family, Set<String> implementationFlags, ServerFactory factory) {
        PrintStream stdout = ProcessStreams.takeStdout();
        ServerOptions options;
        try {
            options = Flags.serverOptions(args, implementationFlags);
            Launcher.checkFamily(options.protocol(), family);
        } catch (RuntimeException e) {
            System.err.println(Launcher.startError("server", e));
            System.exit(2);
            return;
        }
        RunningServer server;
        try {
            server = factory.start(options);
        } catch (Exception e) {
            System.err.println("server: cannot start on " + options.host() + ":" + options.port() + ": " + e);
            System.exit(1);
            return;
        }
        CountDownLatch terminate = new CountDownLatch(1);
        AtomicBoolean stopped = new AtomicBoolean();
        // SIGINT and other exits: stop in a shutdown hook. SIGTERM: handled below so that the exit status is 0.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopOnce(server, stopped), "server-shutdown"));
        TermSignal.onTerm(terminate::countDown);

        stdout.println(readyLine(server));
        stdout.flush();

        awaitQuietly(terminate);
        startWatchdog();
        boolean clean = stopOnce(server, stopped);
        System.exit(clean ? 0 : 1);
    }

    /** {@code {"ready": true, "port": N}}, with the stack's run-time {@code facts} when it reports any. */
    static String readyLine(RunningServer server) {
        ObjectNode line = Json.MAPPER.createObjectNode().put("ready", true).put("port", server.port());
        Map<String, String> facts = server.facts();
        if (!facts.isEmpty()) {
            ObjectNode object = line.putObject("facts");
            facts.forEach(object::put);
        }
        return line.toString();
    }

    private static boolean stopOnce(RunningServer server, AtomicBoolean stopped) {
        if (!stopped.compareAndSet(false, true)) {
            return true;
        }
        try {
            server.stop();
            return true;
        } catch (Exception e) {
            System.err.println("server: stop failed: " + e);
            return false;
        }
    }

    /** A stop that hangs must not outlive the runner's 5 seconds: say so and leave. */
    private static void startWatchdog() {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(STOP_DEADLINE_MS);
                System.err.println("server: stop took longer than " + STOP_DEADLINE_MS + " ms, halting");
                Runtime.getRuntime().halt(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stop-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await(1, TimeUnit.DAYS);
                if (latch.getCount() == 0) {
                    return;
                }
            } catch (InterruptedException e) {
                // keep serving: only SIGTERM (or the shutdown hook) ends the server
            }
        }
    }
}
