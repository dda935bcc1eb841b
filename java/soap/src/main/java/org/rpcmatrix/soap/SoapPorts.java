package org.rpcmatrix.soap;

import java.nio.file.Path;
import javax.xml.namespace.QName;
import org.rpcmatrix.core.Protocol;

/** The ports of idl/bench.wsdl and which one a protocol uses (the registry's {@code soap} variant). */
final class SoapPorts {
    static final String NAMESPACE = "urn:rpcmatrix:bench";
    static final QName SERVICE = new QName(NAMESPACE, "BenchService");

    record Port(String soapVersion, String portName) {
    }

    private SoapPorts() {
    }

    static Port of(Protocol protocol) {
        String soap = protocol.variant("soap");
        return switch (soap == null ? "1.1" : soap) {
            case "1.1" -> new Port("1.1", "BenchSoapPort");
            case "1.2" -> new Port("1.2", "BenchSoap12Port");
            default -> throw new IllegalArgumentException("unknown SOAP version '" + soap + "'");
        };
    }

    static String wsdl(Path idl) {
        return idl.resolve("bench.wsdl").toAbsolutePath().toUri().toString();
    }

    static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
