package org.rpcmatrix.core.harness;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Keeps stdout for the protocol's JSON lines: anything else printed (libraries' logs) goes to stderr. */
final class ProcessStreams {
    private ProcessStreams() {
    }

    static PrintStream takeStdout() {
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        return stdout;
    }
}
