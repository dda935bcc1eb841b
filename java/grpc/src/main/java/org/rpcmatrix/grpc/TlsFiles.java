package org.rpcmatrix.grpc;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The TLS material made at set-up (runner/lib/secrets.sh): a CA, and a server certificate for
 * {@link #SERVER_NAME} and 127.0.0.1 with its PKCS#8 key. Clients check the certificate against
 * SERVER_NAME rather than the address they dial, because the server may sit in a network namespace
 * at an address the certificate cannot know.
 */
record TlsFiles(File caCertificate, File serverCertificate, File serverKey) {
    static final String SERVER_NAME = "server.rpcmatrix.test";

    static TlsFiles in(Path secrets) {
        if (secrets == null) {
            throw new IllegalArgumentException("TLS needs --secrets DIR");
        }
        return new TlsFiles(existing(secrets.resolve("ca.crt")), existing(secrets.resolve("server.crt")),
                existing(secrets.resolve("server.key")));
    }

    private static File existing(Path path) {
        if (!Files.isReadable(path)) {
            throw new IllegalArgumentException("missing TLS file: " + path);
        }
        return path.toFile();
    }
}
