package org.rpcmatrix.soap;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.apache.wss4j.common.crypto.Merlin;
import org.rpcmatrix.core.contract.Json;

/**
 * The run's key material ({secrets}, runner/secrets.sh), read into memory: PKCS#12 key stores, the CA and
 * server certificates, the UsernameToken credential. WSS4J gets it as {@link Merlin} crypto objects built
 * from these stores, never as files.
 */
final class KeyMaterial {
    private final Path dir;
    final char[] keyPassword;
    final String username;
    final String password;

    private KeyMaterial(Path dir, char[] keyPassword, String username, String password) {
        this.dir = dir;
        this.keyPassword = keyPassword;
        this.username = username;
        this.password = password;
    }

    static KeyMaterial load(Path dir) throws IOException {
        if (dir == null) {
            throw new IllegalArgumentException("WS-Security needs --secrets DIR");
        }
        char[] keyPassword = Files.readString(dir.resolve("p12-password"), StandardCharsets.US_ASCII).trim()
                .toCharArray();
        JsonNode token = Json.MAPPER.readTree(dir.resolve("username-token.json").toFile());
        return new KeyMaterial(dir, keyPassword, token.get("username").textValue(), token.get("password").textValue());
    }

    /** The key and certificate of {@code name}.p12 (alias {@code name}): "server", "client" or "rogue-client". */
    KeyStore keyStore(String name) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"))) {
            store.load(in, keyPassword);
        }
        return store;
    }

    /** A store trusting the PEM certificates {@code names} (as "ca" for ca.crt), under their names. */
    KeyStore trusting(String... names) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        for (String name : names) {
            try (InputStream in = Files.newInputStream(dir.resolve(name + ".crt"))) {
                store.setCertificateEntry(name, (X509Certificate) factory.generateCertificate(in));
            }
        }
        return store;
    }

    /** Signs and decrypts with {@code name}'s key; trusts what the set-up CA issued. */
    Merlin crypto(String name) throws IOException, GeneralSecurityException {
        Merlin merlin = new Merlin();
        merlin.setKeyStore(keyStore(name));
        merlin.setTrustStore(trusting("ca"));
        return merlin;
    }

    /** Encrypts for the server: its certificate as alias "server". */
    Merlin serverCertificate() throws IOException, GeneralSecurityException {
        Merlin merlin = new Merlin();
        merlin.setTrustStore(trusting("server"));
        return merlin;
    }
}
