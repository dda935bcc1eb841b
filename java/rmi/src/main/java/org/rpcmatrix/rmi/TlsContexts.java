package org.rpcmatrix.rmi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** SSLContexts built in memory from the set-up's files ({secrets}: *.p12, p12-password, ca.crt); nothing is written. */
final class TlsContexts {
    private TlsContexts() {
    }

    /** The server: server.p12, trusting client certificates of the set-up CA only. */
    static SSLContext server(Path secrets) throws IOException, GeneralSecurityException {
        return context(keys(secrets, "server.p12"), secrets);
    }

    /** A client with {@code p12}'s key and certificate (null: no client certificate), trusting the set-up CA. */
    static SSLContext client(Path secrets, String p12) throws IOException, GeneralSecurityException {
        return context(p12 == null ? null : keys(secrets, p12), secrets);
    }

    private static SSLContext context(KeyManager[] keys, Path secrets) throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(secrets.resolve("ca.crt"))) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, trustManagers.getTrustManagers(), null);
        return context;
    }

    private static KeyManager[] keys(Path secrets, String p12) throws IOException, GeneralSecurityException {
        char[] password = Files.readString(secrets.resolve("p12-password"), StandardCharsets.UTF_8).strip().toCharArray();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(secrets.resolve(p12))) {
            store.load(in, password);
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(store, password);
        return keyManagers.getKeyManagers();
    }
}
