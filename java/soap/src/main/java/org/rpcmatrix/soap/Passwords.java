package org.rpcmatrix.soap;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import org.apache.wss4j.common.ext.WSPasswordCallback;

/**
 * WSS4J's password callback: the PKCS#12 password for a private key (signing, decrypting); for a
 * UsernameToken, the password of the one known user (the server checks the digest against it, the client
 * sends it). An unknown user gets no password, which WSS4J refuses.
 */
final class Passwords implements CallbackHandler {
    private final String keyPassword;
    private final String username;
    private final String password;

    Passwords(char[] keyPassword, String username, String password) {
        this.keyPassword = new String(keyPassword);
        this.username = username;
        this.password = password;
    }

    @Override
    public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
        for (Callback callback : callbacks) {
            if (!(callback instanceof WSPasswordCallback pc)) {
                throw new UnsupportedCallbackException(callback);
            }
            if (pc.getUsage() == WSPasswordCallback.USERNAME_TOKEN) {
                if (username.equals(pc.getIdentifier())) {
                    pc.setPassword(password);
                }
            } else {
                pc.setPassword(keyPassword);
            }
        }
    }
}
