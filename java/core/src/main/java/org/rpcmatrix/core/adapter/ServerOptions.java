package org.rpcmatrix.core.adapter;

import java.nio.file.Path;
import java.util.Map;
import org.rpcmatrix.core.contract.Protocol;

/**
 * A server's command line: {@code --protocol P --host H --port N --idl DIR [--secrets DIR]} plus the
 * implementation options a module declares (such as {@code --executor pool}), parsed by the harness's
 * {@code Flags}. {@code secrets} is null when not given; port 0 lets the system choose; {@code protocol} comes
 * from the registry in {@code idl}.
 */
public record ServerOptions(Protocol protocol, String host, int port, Path idl, Path secrets,
        Map<String, String> implementation) {

    /** The implementation option {@code flag}'s value, or {@code fallback} when it was not given. */
    public String implementation(String flag, String fallback) {
        return implementation.getOrDefault(flag, fallback);
    }
}
