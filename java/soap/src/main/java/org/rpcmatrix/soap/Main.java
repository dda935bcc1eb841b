package org.rpcmatrix.soap;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rpcmatrix.core.harness.Launcher;

/**
 * {@code server|client --protocol P --host H --port N --idl DIR [--secrets DIR]} (runner/PROTOCOL.md), for
 * soap11, soap12 and the wss-* protocols; also {@code client --check-wsdl URL} (see {@link WsdlCheck}).
 */
public final class Main {
    static final String FAMILY = "soap";
    /** Held: a logger whose level is set must not be collected. */
    private static final Logger CXF_LOG = Logger.getLogger("org.apache.cxf");

    private Main() {
    }

    public static void main(String[] args) {
        // No per-request logging: CXF logs every fault it sends or receives at INFO. Warnings (refused
        // security headers) stay.
        CXF_LOG.setLevel(Level.WARNING);
        int check = Arrays.asList(args).indexOf("--check-wsdl");
        if (args.length > 0 && "client".equals(args[0]) && check > 0 && check + 1 < args.length) {
            // stdout carries only the answer: library logs go to stderr.
            PrintStream answer = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
            System.setOut(System.err);
            answer.println(WsdlCheck.check(args[check + 1]));
            System.exit(0);
        }
        Launcher.run(args, FAMILY, SoapServer::start, SoapClient::connect);
    }
}
