package org.rpcmatrix.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InvalidClassException;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.rmi.ServerException;
import java.rmi.UnmarshalException;
import java.rmi.server.RemoteObject;
import java.rmi.server.RemoteRef;
import java.security.MessageDigest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's deserialization filter: an argument of a class outside the allow-list is refused before it is
 * instantiated, and the server keeps serving.
 */
class SerialFilterTest {
    /** A Serializable class the contract knows nothing of, standing for a gadget. */
    static final class Foreign implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean instantiated;
        final String payload = "x";

        private void readObject(java.io.ObjectInputStream in) throws Exception {
            in.defaultReadObject();
            instantiated = true;
        }
    }

    private RmiServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aForeignClassAsAnArgumentIsRefused() throws Exception {
        server = RmiServer.start("127.0.0.1", 0, null);
        RmiClient client = RmiClient.connect("127.0.0.1", server.port(), false);
        RemoteBench stub = (RemoteBench) java.rmi.registry.LocateRegistry
                .getRegistry("127.0.0.1", server.port(), new ClientSockets(ClientSockets.PLAIN)).lookup("Bench");
        // average(double[]) called with a Foreign in place of the array: the stub's reference is driven directly,
        // with the method's real hash, so the server reads the foreign object where it expects double[].
        Method average = RemoteBench.class.getMethod("average", double[].class);
        RemoteRef ref = ((RemoteObject) Proxy.getInvocationHandler(stub)).getRef();
        Foreign.instantiated = false;
        // RMI answers the server's failure to read the arguments as ServerException(UnmarshalException(cause)).
        ServerException refused = assertThrows(ServerException.class,
                () -> ref.invoke(stub, average, new Object[] {new Foreign()}, methodHash("average([D)D")));
        assertTrue(causeChainHas(refused, UnmarshalException.class), refused.toString());
        assertTrue(causeChainHas(refused, InvalidClassException.class), refused.toString());
        assertTrue(refused.toString().contains("REJECTED"), refused.toString());
        // Server and client share this JVM here: readObject of the foreign class never ran.
        assertEquals(false, Foreign.instantiated);
        client.ping();
        assertEquals(2.0, client.average(new double[] {1, 3}));
    }

    @Test
    void theAllowListTakesTheContractsArguments() {
        assertEquals(java.io.ObjectInputFilter.Status.ALLOWED, check(double[].class));
        assertEquals(java.io.ObjectInputFilter.Status.ALLOWED, check(String.class));
        assertEquals(java.io.ObjectInputFilter.Status.REJECTED, check(Foreign.class));
        assertEquals(java.io.ObjectInputFilter.Status.REJECTED, check(java.util.HashMap.class));
    }

    /** An array is judged by its bytes before it is allocated: the contract's largest fits, 128 MiB does not. */
    @Test
    void arraysAreBoundedByTheirBytes() {
        assertEquals(java.io.ObjectInputFilter.Status.ALLOWED, check(byte[].class, 1L << 20));
        assertEquals(java.io.ObjectInputFilter.Status.ALLOWED, check(double[].class, 50_000));
        assertEquals(java.io.ObjectInputFilter.Status.REJECTED, check(double[].class, 16L << 20));
        assertEquals(java.io.ObjectInputFilter.Status.REJECTED, check(long[].class, 1L << 20));
        assertEquals(java.io.ObjectInputFilter.Status.REJECTED, check(byte[].class, 5L << 20));
    }

    private static java.io.ObjectInputFilter.Status check(Class<?> type) {
        return check(type, -1);
    }

    private static java.io.ObjectInputFilter.Status check(Class<?> type, long length) {
        return SerialFilter.INSTANCE.checkInput(new java.io.ObjectInputFilter.FilterInfo() {
            public Class<?> serialClass() {
                return type;
            }

            public long arrayLength() {
                return length;
            }

            public long depth() {
                return 1;
            }

            public long references() {
                return 1;
            }

            public long streamBytes() {
                return 100;
            }
        });
    }

    /** RMI's method hash (Java RMI specification 8.3): the first 8 bytes of SHA-1(writeUTF(name+descriptor)), little-endian. */
    private static long methodHash(String nameAndDescriptor) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new DataOutputStream(bytes).writeUTF(nameAndDescriptor);
        byte[] sha = MessageDigest.getInstance("SHA-1").digest(bytes.toByteArray());
        long hash = 0;
        for (int i = 0; i < Math.min(8, sha.length); i++) {
            hash += (long) (sha[i] & 0xFF) << (i * 8);
        }
        return hash;
    }

    private static boolean causeChainHas(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
