package org.rpcmatrix.core;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A client process: {@code client --host H --port P --idl DIR ...}, then the command loop on stdin. */
public final class ClientMain {
    private ClientMain() {
    }

    /** Runs the command loop until {@code quit} or end of input, then exits the JVM. */
    public static void run(String[] args, String defaultProtocol, ClientFactory factory) {
        PrintStream answers = ProcessStreams.takeStdout();
        ClientSession session;
        try {
            ClientOptions options = ClientOptions.parse(args);
            session = new ClientSession(ContractFiles.load(options.idl()), options, defaultProtocol, factory);
        } catch (Exception e) {
            System.err.println("client: " + e.getMessage());
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
