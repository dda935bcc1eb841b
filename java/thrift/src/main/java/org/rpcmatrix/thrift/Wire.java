package org.rpcmatrix.thrift;

import java.util.Locale;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.rpcmatrix.core.contract.Protocol;

/** The Thrift protocol (wire encoding) of a server or client; both run on the framed transport. */
enum Wire {
    BINARY,
    COMPACT;

    TProtocolFactory protocolFactory() {
        return switch (this) {
            case BINARY -> new TBinaryProtocol.Factory();
            case COMPACT -> new TCompactProtocol.Factory();
        };
    }

    /** The encoding the registry gives the protocol ({@code "encoding": "binary"}); framed is the only transport. */
    static Wire of(Protocol protocol) {
        String encoding = protocol.variant("encoding");
        String transport = protocol.variant("transport");
        if (transport != null && !transport.equals("framed")) {
            throw new IllegalArgumentException(protocol.name() + ": transport " + transport + " is not implemented");
        }
        try {
            return valueOf(String.valueOf(encoding).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(protocol.name() + ": encoding " + encoding + " is not implemented", e);
        }
    }
}
