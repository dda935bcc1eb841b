package org.rpcmatrix.grpc;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The TLS material made at set-up (runner/secrets.sh), or given for a server elsewhere: a CA, and a server
 * certificate with its PKCS#8 key. A server needs its certificate and key, a client only the CA; the client checks
 * the certificate against a name (ClientOptions.tlsServerName) rather than the address it dials, because the
 * server may sit in a network namespace at an address the certificate cannot know.
 */
record TlsFiles(File caCertificate, File serverCertificate, File serverKey) {
    static TlsFiles forServer(Path secrets) {
        return new TlsFiles(null, existing(secrets, "server.crt"), existing(secrets, "server.key"));
    }

    static TlsFiles forClient(Path secrets) {
        return new TlsFiles(existing(secrets, "ca.crt"), null, null);
    }

    private static File existing(Path secrets, String name) {
        if (secrets == null) {
            throw new IllegalArgumentException("TLS needs --secrets DIR");
        }
        Path path = secrets.resolve(name);
        if (!Files.isReadable(path)) {
            throw new IllegalArgumentException("missing TLS file: " + path);
        }
        return path.toFile();
    }
}
