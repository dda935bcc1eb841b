package org.rpcmatrix.httpinvoker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.conformance.ContractFiles;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Protocol;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.core.harness.ClientSession;
import org.rpcmatrix.core.reference.ReferenceBench;
import org.rpcmatrix.httphost.HttpHost;
import org.springframework.remoting.RemoteAccessException;
import org.springframework.remoting.support.RemoteInvocation;

/** HttpInvoker in process: the contract both ways, BenchError, and the deserialization allow-list. */
class HttpInvokerRoundTripTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private static final AtomicBoolean SMUGGLED_CALL_RAN = new AtomicBoolean();
    private static HttpHost host;

    @BeforeAll
    static void start() throws Exception {
        HttpInvokerApi reference = HttpInvokerServer.service(new ReferenceBench());
        // The service as served, noting whether echoString ran.
        HttpInvokerApi service = (HttpInvokerApi) Proxy.newProxyInstance(HttpInvokerApi.class.getClassLoader(),
                new Class<?>[] {HttpInvokerApi.class}, (proxy, method, args) -> {
                    if (method.getName().equals("echoString")) {
                        SMUGGLED_CALL_RAN.set(true);
                    }
                    try {
                        return method.invoke(reference, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        host = HttpHost.start("127.0.0.1", 0, "test",
                Map.of(HttpInvokerServer.PATH, HttpInvokerServer.servlet(service)));
    }

    @AfterAll
    static void stop() throws Exception {
        host.stop();
    }

    @Test
    void everyVectorPassesOrIsUnsupported() throws Exception {
        Protocol protocol = ProtocolRegistry.load(IDL).require(Main.FAMILY);
        ClientSession session = new ClientSession(ContractFiles.load(IDL),
                new ClientOptions(protocol, "127.0.0.1", host.port(), IDL, null), HttpInvokerClient::connect);
        assertTrue(Json.MAPPER.readTree(session.handle("{\"cmd\": \"connect\"}")).get("ok").booleanValue());
        JsonNode answer = Json.MAPPER.readTree(
                session.handle("{\"cmd\": \"vectors\", \"protocol\": \"httpinvoker\"}"));
        for (JsonNode result : answer.get("results")) {
            String status = result.get("status").textValue();
            if (!status.equals("pass")) {
                assertEquals("unsupported", status, result.toString());
                assertTrue(protocol.lacks().containsValue(result.get("reason").textValue()), result.toString());
            }
        }
        session.close();
    }

    @Test
    void benchErrorIsTheDeclaredCheckedException() throws Exception {
        try (HttpInvokerClient client = HttpInvokerClient.create("127.0.0.1", host.port(), HttpInvokerApi.class)) {
            BenchError error = assertThrows(BenchError.class, () -> client.fail(42, "boom"));
            assertEquals(42, error.code());
            assertEquals("boom", error.getMessage());
        }
    }

    /** A Serializable class the allow-list does not name: what a gadget chain would be made of. */
    record Smuggled(String payload) implements Serializable {
    }

    /** Same method name as the service's, but declared with an Object parameter so anything can be sent. */
    interface Smuggler {
        String echoString(Object value);
    }

    @Test
    void theFilterRefusesAnUnexpectedSerializableClass() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new RemoteInvocation("echoString", new Class<?>[] {String.class},
                    new Object[] {new Smuggled("x")}));
        }
        HttpInvokerServer.FilteringExporter exporter = new HttpInvokerServer.FilteringExporter();
        InvalidClassException refused = assertThrows(InvalidClassException.class,
                () -> exporter.createObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject());
        assertTrue(refused.getMessage().contains("REJECTED"), refused.getMessage());
    }

    /** A few bytes declaring long[16 Mi] are refused before 128 MiB is allocated (ArrayBudget). */
    @Test
    void aDeclaredArrayOverTheBudgetIsRefusedBeforeItIsAllocated() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new long[0]);
        }
        byte[] stream = bytes.toByteArray();
        stream[stream.length - 4] = 0x01; // the array's length, the stream's last four bytes: 16 Mi
        HttpInvokerServer.FilteringExporter exporter = new HttpInvokerServer.FilteringExporter();
        InvalidClassException refused = assertThrows(InvalidClassException.class,
                () -> exporter.createObjectInputStream(new ByteArrayInputStream(stream)).readObject());
        assertTrue(refused.getMessage().contains("REJECTED"), refused.getMessage());
    }

    @Test
    void theServerRefusesItOverHttpWithoutCallingTheService() throws Exception {
        Smuggler smuggler = (Smuggler) HttpInvokerClient.rawProxy("127.0.0.1", host.port(), Smuggler.class);
        RemoteAccessException error = assertThrows(RemoteAccessException.class,
                () -> smuggler.echoString(new Smuggled("x")));
        assertInstanceOf(RemoteAccessException.class, error);
        assertFalse(SMUGGLED_CALL_RAN.get());
        try (HttpInvokerClient client = HttpInvokerClient.create("127.0.0.1", host.port(), HttpInvokerApi.class)) {
            client.ping(); // still serving
        }
    }
}
