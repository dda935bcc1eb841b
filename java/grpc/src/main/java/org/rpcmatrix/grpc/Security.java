package org.rpcmatrix.grpc;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.JdkSslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.OpenSsl;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLException;
import org.rpcmatrix.core.contract.Protocol;

/**
 * The security variant of a gRPC protocol (registry: {@code "security": "tls"|"none"}) and its TLS contexts.
 * GrpcSslContexts picks OpenSSL (BoringSSL in netty-tcnative, bundled in grpc-netty-shaded) when it loads and
 * the JDK provider otherwise, with ALPN h2; the context built is reported as it is.
 */
final class Security {
    private Security() {
    }

    /** Whether the protocol runs over TLS; a security value other than tls or none is refused. */
    static boolean tls(Protocol protocol) {
        String security = protocol.variant("security");
        if ("tls".equals(security)) {
            return true;
        }
        if (security == null || "none".equals(security)) {
            return false;
        }
        throw new IllegalArgumentException(protocol.name() + ": security " + security + " is not implemented");
    }

    static SslContext server(TlsFiles files) throws SSLException {
        return GrpcSslContexts.forServer(files.serverCertificate(), files.serverKey()).build();
    }

    static SslContext client(TlsFiles files) throws SSLException {
        return GrpcSslContexts.forClient().trustManager(files.caCertificate()).build();
    }

    /** {@code tls_provider} (openssl or jdk) and {@code tls_library} (BoringSSL, SunJSSE...) of a built context. */
    static Map<String, String> facts(SslContext context) {
        Map<String, String> facts = new LinkedHashMap<>();
        if (context instanceof JdkSslContext jdk) {
            facts.put("tls_provider", "jdk");
            facts.put("tls_library", jdk.context().getProvider().getName());
        } else {
            facts.put("tls_provider", "openssl");
            facts.put("tls_library", OpenSsl.versionString() + " (netty-tcnative)");
        }
        return facts;
    }
}
