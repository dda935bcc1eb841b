package org.rpcmatrix.core.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.conformance.Vector;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.testing.TestSessions;

/** idl/protocols.json: refusal of unregistered protocols, families and variants, needs against lacks. */
class ProtocolRegistryTest {
    @Test
    void anUnregisteredProtocolIsRefusedWithTheCommonMessage() {
        ProtocolRegistry.UnregisteredProtocolException refused = assertThrows(
                ProtocolRegistry.UnregisteredProtocolException.class,
                () -> Flags.clientOptions(new String[] {"--protocol", "smoke-signals", "--host", "127.0.0.1", "--port",
                        "9", "--idl", TestSessions.IDL.toString()}));
        assertEquals("protocol 'smoke-signals' is not in idl/protocols.json", refused.getMessage());
        assertEquals(refused.getMessage(), Launcher.startError("client", refused), "printed as it is");
        assertThrows(ProtocolRegistry.UnregisteredProtocolException.class,
                () -> Flags.serverOptions(new String[] {"--protocol", "grpc-quic", "--host", "127.0.0.1", "--port", "0",
                        "--idl", TestSessions.IDL.toString()}, java.util.Set.of()));
    }

    @Test
    void aProtocolOfAnotherFamilyIsRefused() {
        Launcher.checkFamily(TestSessions.protocol("grpc-tls"), "grpc");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Launcher.checkFamily(TestSessions.protocol("thrift-binary"), "grpc"));
        assertEquals("protocol 'thrift-binary' is of family thrift; this program serves the grpc family",
                refused.getMessage());
    }

    @Test
    void variantsComeFromTheRegistry() {
        assertEquals("tls", TestSessions.protocol("grpc-tls").variant("security"));
        assertEquals("none", TestSessions.protocol("grpc").variant("security"));
        assertEquals("binary", TestSessions.protocol("thrift-binary").variant("encoding"));
        assertEquals("framed", TestSessions.protocol("thrift-compact").variant("transport"));
    }

    @Test
    void aNeedTheProtocolLacksGivesItsReason() {
        Protocol xmlrpc = TestSessions.protocol("xmlrpc");
        assertNull(xmlrpc.unsupportedReason(List.of()));
        assertNull(xmlrpc.unsupportedReason(List.of("int64-exact")));
        assertEquals(xmlrpc.lacks().get("nonfinite-float"),
                xmlrpc.unsupportedReason(List.of("int64-exact", "nonfinite-float")));
        assertEquals("the raw TCP baseline answers each request with one frame",
                TestSessions.protocol("rawtcp").unsupportedReason(List.of("server-streaming")));
        assertNull(TestSessions.protocol("grpc").unsupportedReason(List.of("server-streaming", "c0-control-char")));
    }

    @Test
    void vectorsAndWorkloadsNeedTheirOwnCapabilitiesAndTheirOperations() throws Exception {
        ContractFiles files = ContractFiles.load(TestSessions.IDL);
        Vector int64Max = files.vectors().stream().filter(v -> v.id().equals("int64_max")).findFirst().orElseThrow();
        assertEquals(List.of("int64-exact"), int64Max.needs());
        Vector stream = files.vectors().stream().filter(v -> v.id().equals("random_doubles_stream_zero_chunk"))
                .findFirst().orElseThrow();
        assertEquals(List.of("server-streaming"), stream.needs());
        assertEquals(List.of("server-streaming"), files.workload("randomDoublesStream50k").needs());
        assertEquals(List.of(), files.workload("ping").needs());
    }
}
