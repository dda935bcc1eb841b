package org.rpcmatrix.soap;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cxf.binding.soap.SoapMessage;
import org.apache.cxf.message.Message;
import org.apache.cxf.ws.security.wss4j.CryptoCoverageChecker;
import org.apache.cxf.ws.security.wss4j.CryptoCoverageUtil.CoverageScope;
import org.apache.cxf.ws.security.wss4j.CryptoCoverageUtil.CoverageType;
import org.apache.wss4j.common.ConfigurationConstants;
import org.apache.wss4j.common.WSS4JConstants;
import org.rpcmatrix.core.contract.Protocol;

/**
 * The action-based WSS4J configuration of each WS-Security variant (the registry's {@code security}), for
 * both ends. Signatures: RSA-SHA256, SHA-256 digests, exclusive C14N, the signer's certificate sent as a
 * BinarySecurityToken (DirectReference), over the Timestamp and the Body. Encryption: the Body's content,
 * AES-128-CBC under a key sent with RSA-OAEP key transport, to the server's certificate (requests) or to the
 * certificate that signed the request (responses).
 */
final class WsSecurity {
    /** The registry's {@code security} variants of the soap family. */
    enum Mode {
        NONE, USERNAME_TOKEN, SIGNATURE, SIGNATURE_ENCRYPTION;

        static Mode of(Protocol protocol) {
            String security = protocol.variant("security");
            return switch (security == null ? "none" : security) {
                case "none" -> NONE;
                case "username-token" -> USERNAME_TOKEN;
                case "x509-signature" -> SIGNATURE;
                case "x509-signature-encryption" -> SIGNATURE_ENCRYPTION;
                default -> throw new IllegalArgumentException("unknown soap security variant '" + security + "'");
            };
        }

        boolean signs() {
            return this == SIGNATURE || this == SIGNATURE_ENCRYPTION;
        }

        /** The action list, in the order the sender applies them. */
        String actions() {
            return switch (this) {
                case NONE -> "";
                case USERNAME_TOKEN -> "UsernameToken Timestamp";
                case SIGNATURE -> "Timestamp Signature";
                case SIGNATURE_ENCRYPTION -> "Timestamp Signature Encrypt";
            };
        }
    }

    static final String SOAP11_ENVELOPE = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SIGNED_PARTS = "{}{" + WSS4JConstants.WSU_NS + "}Timestamp;{}{" + SOAP11_ENVELOPE + "}Body";
    private static final String ENCRYPTED_PARTS = "{Content}{" + SOAP11_ENVELOPE + "}Body";
    private static final String SIGNATURE_CRYPTO = "rpcmatrix.signatureCrypto";
    private static final String VERIFICATION_CRYPTO = "rpcmatrix.verificationCrypto";
    private static final String ENCRYPTION_CRYPTO = "rpcmatrix.encryptionCrypto";
    private static final String DECRYPTION_CRYPTO = "rpcmatrix.decryptionCrypto";

    private WsSecurity() {
    }

    /** What a client adds to its requests; {@code signer} names the key ("client", or "rogue-client"). */
    static Map<String, Object> clientOut(Mode mode, KeyMaterial keys, String signer, String password) throws Exception {
        Map<String, Object> props = base(mode, new Passwords(keys.keyPassword, keys.username, password));
        if (mode == Mode.USERNAME_TOKEN) {
            props.put(ConfigurationConstants.USER, keys.username);
            props.put(ConfigurationConstants.PASSWORD_TYPE, "PasswordDigest");
            props.put(ConfigurationConstants.ADD_USERNAMETOKEN_NONCE, "true");
            props.put(ConfigurationConstants.ADD_USERNAMETOKEN_CREATED, "true");
        }
        if (mode.signs()) {
            sign(props, keys.crypto(signer), signer);
        }
        if (mode == Mode.SIGNATURE_ENCRYPTION) {
            encrypt(props, keys.serverCertificate(), "server");
        }
        return props;
    }

    /** What a client checks on answers (nothing for UsernameToken: it authenticates the requester only). */
    static Map<String, Object> clientIn(Mode mode, KeyMaterial keys) throws Exception {
        Map<String, Object> props = base(mode, new Passwords(keys.keyPassword, keys.username, keys.password));
        if (mode.signs()) {
            verify(props, keys.crypto("client"));
        }
        return props;
    }

    static Map<String, Object> serverIn(Mode mode, KeyMaterial keys) throws Exception {
        Map<String, Object> props = base(mode, new Passwords(keys.keyPassword, keys.username, keys.password));
        if (mode == Mode.USERNAME_TOKEN) {
            // Inbound, WSS4J 2 refuses a token whose password type is not this one (no plain text passwords).
            props.put(ConfigurationConstants.PASSWORD_TYPE, "PasswordDigest");
        }
        if (mode.signs()) {
            verify(props, keys.crypto("server"));
        }
        return props;
    }

    static Map<String, Object> serverOut(Mode mode, KeyMaterial keys) throws Exception {
        Map<String, Object> props = base(mode, new Passwords(keys.keyPassword, keys.username, keys.password));
        if (mode.signs()) {
            sign(props, keys.crypto("server"), "server");
        }
        if (mode == Mode.SIGNATURE_ENCRYPTION) {
            encrypt(props, keys.crypto("server"), ConfigurationConstants.USE_REQ_SIG_CERT);
        }
        return props;
    }

    /** Refuses a signed message whose Timestamp or Body is not signed (or, encrypting, whose Body is clear). */
    static CryptoCoverageChecker coverage(Mode mode) {
        Map<String, String> prefixes = Map.of("soapenv", SOAP11_ENVELOPE, "wsse", WSS4JConstants.WSSE_NS,
                "wsu", WSS4JConstants.WSU_NS);
        List<CryptoCoverageChecker.XPathExpression> required = new java.util.ArrayList<>(List.of(
                new CryptoCoverageChecker.XPathExpression("/soapenv:Envelope/soapenv:Body",
                        CoverageType.SIGNED, CoverageScope.ELEMENT),
                new CryptoCoverageChecker.XPathExpression("/soapenv:Envelope/soapenv:Header/wsse:Security/wsu:Timestamp",
                        CoverageType.SIGNED, CoverageScope.ELEMENT)));
        if (mode == Mode.SIGNATURE_ENCRYPTION) {
            required.add(new CryptoCoverageChecker.XPathExpression("/soapenv:Envelope/soapenv:Body",
                    CoverageType.ENCRYPTED, CoverageScope.CONTENT));
        }
        return new FaultTolerantCoverage(prefixes, required);
    }

    /**
     * SOAP Faults go out unsigned (WSS4J's out-interceptor is not on the fault chain): a refusal (HTTP 500)
     * must reach the client as the server wrote it. Not the checker's own setCheckFaults(false): it asks SAAJ
     * whether the body holds a fault, which fails on a body WSS4J has just decrypted.
     */
    static final class FaultTolerantCoverage extends CryptoCoverageChecker {
        private static final int FAULT_STATUS = 500;

        FaultTolerantCoverage(Map<String, String> prefixes, List<XPathExpression> required) {
            super(prefixes, required);
        }

        @Override
        public void handleMessage(SoapMessage message) {
            if (Integer.valueOf(FAULT_STATUS).equals(message.get(Message.RESPONSE_CODE))) {
                return;
            }
            super.handleMessage(message);
        }
    }

    private static Map<String, Object> base(Mode mode, Passwords passwords) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConfigurationConstants.ACTION, mode.actions());
        props.put(ConfigurationConstants.PW_CALLBACK_REF, passwords);
        return props;
    }

    private static void sign(Map<String, Object> props, Object crypto, String alias) {
        props.put(SIGNATURE_CRYPTO, crypto);
        props.put(ConfigurationConstants.SIG_PROP_REF_ID, SIGNATURE_CRYPTO);
        props.put(ConfigurationConstants.SIGNATURE_USER, alias);
        props.put(ConfigurationConstants.SIG_KEY_ID, "DirectReference");
        props.put(ConfigurationConstants.SIG_ALGO, WSS4JConstants.RSA_SHA256);
        props.put(ConfigurationConstants.SIG_DIGEST_ALGO, WSS4JConstants.SHA256);
        props.put(ConfigurationConstants.SIG_C14N_ALGO, WSS4JConstants.C14N_EXCL_OMIT_COMMENTS);
        props.put(ConfigurationConstants.SIGNATURE_PARTS, SIGNED_PARTS);
    }

    private static void encrypt(Map<String, Object> props, Object crypto, String recipient) {
        props.put(ENCRYPTION_CRYPTO, crypto);
        props.put(ConfigurationConstants.ENC_PROP_REF_ID, ENCRYPTION_CRYPTO);
        props.put(ConfigurationConstants.ENCRYPTION_USER, recipient);
        props.put(ConfigurationConstants.ENC_KEY_ID, "IssuerSerial");
        props.put(ConfigurationConstants.ENC_SYM_ALGO, WSS4JConstants.AES_128);
        props.put(ConfigurationConstants.ENC_KEY_TRANSPORT, WSS4JConstants.KEYTRANSPORT_RSAOAEP);
        props.put(ConfigurationConstants.ENCRYPTION_PARTS, ENCRYPTED_PARTS);
    }

    /** Checks signatures against the set-up CA and decrypts with {@code own}'s key. */
    private static void verify(Map<String, Object> props, Object own) {
        props.put(VERIFICATION_CRYPTO, own);
        props.put(ConfigurationConstants.SIG_VER_PROP_REF_ID, VERIFICATION_CRYPTO);
        props.put(DECRYPTION_CRYPTO, own);
        props.put(ConfigurationConstants.DEC_PROP_REF_ID, DECRYPTION_CRYPTO);
    }
}
