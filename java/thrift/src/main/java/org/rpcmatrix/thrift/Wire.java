package org.rpcmatrix.thrift;

import java.util.Locale;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;

/** The Thrift protocol (wire encoding) of a server or client; both run on the framed transport. */
enum Wire {
    BINARY("thrift-binary"),
    COMPACT("thrift-compact");

    private final String protocolName;

    Wire(String protocolName) {
        this.protocolName = protocolName;
    }

    /** The protocol's name in the manifests, vectors and protocol-limits.json. */
    String protocolName() {
        return protocolName;
    }

    TProtocolFactory protocolFactory() {
        return switch (this) {
            case BINARY -> new TBinaryProtocol.Factory();
            case COMPACT -> new TCompactProtocol.Factory();
        };
    }

    /** Parses the value of {@code --wire}: {@code binary} or {@code compact}. */
    static Wire parse(String value) {
        try {
            return valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--wire must be binary or compact, not " + value, e);
        }
    }
}
