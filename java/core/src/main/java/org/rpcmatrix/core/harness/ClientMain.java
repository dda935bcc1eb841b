package org.rpcmatrix.core.harness;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.rpcmatrix.core.adapter.ClientFactory;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.conformance.ContractFiles;

/**
 * A client process: {@code client --protocol P --host H --port N --idl DIR ...}, then the command loop on stdin.
 * It connects only when told to ({@code connect}).
 */
public final class ClientMain {
    private ClientMain() {
    }

    /** Runs the command loop until {@code quit} or end of input, then exits the JVM. */
    public static void run(String[] args, String family, ClientFactory factory) {
        PrintStream answers = ProcessStreams.takeStdout();
        ClientSession session;
        try {
            ClientOptions options = Flags.clientOptions(args);
            Launcher.checkFamily(options.protocol(), family);
            session = new ClientSession(ContractFiles.load(options.idl()), options, factory);
        } catch (Exception e) {
            System.err.println(Launcher.startError("client", e));
            System.exit(2);
            return;
        }
        int status = 0;
        try (BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while (!session.finished() && (line = commands.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                answers.println(session.handle(line));
                answers.flush();
            }
            session.close();
        } catch (Exception e) {
            System.err.println("client: " + e);
            status = 1;
        }
        answers.flush();
        // Exit explicitly: some protocol libraries leave non-daemon threads behind.
        System.exit(status);
    }
}
