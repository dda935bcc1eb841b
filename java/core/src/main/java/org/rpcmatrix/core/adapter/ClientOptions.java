package org.rpcmatrix.core.adapter;

import java.nio.file.Path;
import org.rpcmatrix.core.contract.Protocol;

/**
 * A client's command line: {@code --protocol P --host H --port N --idl DIR [--secrets DIR]} (parsed by the
 * harness's {@code Flags}). {@code secrets} is null when not given; {@code protocol} comes from the registry in
 * {@code idl}.
 */
public record ClientOptions(Protocol protocol, String host, int port, Path idl, Path secrets) {
}
