package org.rpcmatrix.hessian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.caucho.burlap.client.BurlapProxyFactory;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.io.SerializerFactory;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.httphost.HttpHost;

/** A peer that names a class outside the contract gets a fault; the class is never built (ContractClasses). */
class ForeignClassTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    /** A class the server's JVM can load; Hessian calls readResolve on every object it builds. */
    static final class Canary implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger BUILT = new AtomicInteger();
        int value = 7;

        private Object readResolve() {
            BUILT.incrementAndGet();
            return this;
        }
    }

    /** The contract's echoString, declared to take any object, so the proxy writes the canary as it is. */
    public interface Hostile {
        String echoString(Object value);
    }

    /** An int where the contract declares float64 is refused, as every server of the suite does (CONTRACT.md). */
    @ParameterizedTest
    @ValueSource(strings = {"hessian1", "hessian2", "burlap"})
    void anIntegerIsNoFloat64(String name) throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require(name);
        HttpHost host = HttpHost.start("127.0.0.1", 0, "test",
                HessianServer.servlets(protocol.family(), HessianServer.service(new ReferenceBench())));
        try {
            // The suite's own proxy (it reads Hessian 1 replies with the version 1 reader); HessianApi takes Object.
            HessianApi proxy = HessianClient.proxy(protocol, "127.0.0.1", host.port());
            assertEquals(2.5, proxy.echoFloat64(2.5));
            Exception refused = assertThrows(Exception.class, () -> proxy.echoFloat64(3));
            assertTrue(String.valueOf(FaultDetails.toBenchError(refused).getMessage()).contains("float64 expected"),
                    refused.toString());
        } finally {
            host.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hessian1", "hessian2", "burlap"})
    void aForeignClassIsRefusedAndNeverBuilt(String name) throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require(name);
        HttpHost host = HttpHost.start("127.0.0.1", 0, "test",
                HessianServer.servlets(protocol.family(), HessianServer.service(new ReferenceBench())));
        try {
            Hostile hostile = hostileProxy(protocol, host.port());
            Canary.BUILT.set(0);
            assertThrows(Exception.class, () -> hostile.echoString(new Canary()));
            assertThrows(Exception.class, () -> hostile.echoString(new AtomicLong(5)));
            assertEquals(0, Canary.BUILT.get());
        } finally {
            host.stop();
        }
    }

    /** Garbage gets an error page with the status and a message, never the server's stack (HttpHost). */
    @ParameterizedTest
    @ValueSource(strings = {"hessian1", "burlap"})
    void garbageIsAnsweredWithoutAStackTrace(String name) throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require(name);
        HttpHost host = HttpHost.start("127.0.0.1", 0, "test",
                HessianServer.servlets(protocol.family(), HessianServer.service(new ReferenceBench())));
        try {
            String path = Main.BURLAP.equals(protocol.family()) ? HessianServer.BURLAP_PATH : HessianServer.HESSIAN_PATH;
            java.net.HttpURLConnection http = (java.net.HttpURLConnection)
                    new java.net.URL(HttpHost.url("127.0.0.1", host.port(), path)).openConnection();
            http.setRequestMethod("POST");
            http.setDoOutput(true);
            try (java.io.OutputStream out = http.getOutputStream()) {
                out.write("c\u0001\u0000m\u0000\u0004pingzzzz not a call".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            }
            int status = http.getResponseCode();
            java.io.InputStream body = status < 400 ? http.getInputStream() : http.getErrorStream();
            String page = new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            // The skeletons fail on the body (Hessian 1: unexpected end of file; Burlap: expected '<'), and the
            // servlet container answers 500 with the exception's message.
            assertEquals(500, status, page);
            assertFalse(page.contains("\tat ") || page.contains("at com.caucho") || page.contains("at org.eclipse"),
                    page);
        } finally {
            host.stop();
        }
    }

    @Test
    void onlyTheContractsStructsLoad() throws Exception {
        SerializerFactory factory = ContractClasses.restrict(new SerializerFactory());
        assertEquals(WireStructs.WireItem.class,
                factory.loadSerializedClass(WireStructs.WireItem.class.getName()));
        assertEquals(HashMap.class, factory.loadSerializedClass(AtomicLong.class.getName()));
        assertEquals(HashMap.class, factory.loadSerializedClass(Canary.class.getName()));
        assertEquals(HashMap.class, factory.loadSerializedClass("java.lang.Runtime"));
    }

    private static Hostile hostileProxy(Protocol protocol, int port) throws Exception {
        if (Main.BURLAP.equals(protocol.family())) {
            return (Hostile) new BurlapProxyFactory().create(Hostile.class,
                    HttpHost.url("127.0.0.1", port, HessianServer.BURLAP_PATH));
        }
        HessianProxyFactory factory = new HessianProxyFactory();
        boolean version2 = "2".equals(protocol.variant("version"));
        factory.setHessian2Request(version2);
        factory.setHessian2Reply(version2);
        return (Hostile) factory.create(Hostile.class, HttpHost.url("127.0.0.1", port, HessianServer.HESSIAN_PATH),
                ForeignClassTest.class.getClassLoader());
    }
}
