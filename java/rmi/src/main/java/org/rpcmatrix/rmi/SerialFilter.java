package org.rpcmatrix.rmi;

import java.io.ObjectInputFilter;
import java.util.Set;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.ArrayBudget;
import org.rpcmatrix.javaserial.SerialBook;
import org.rpcmatrix.javaserial.SerialItem;
import org.rpcmatrix.javaserial.SerialRecord;

/**
 * The server's deserialization filter for call arguments: an allow-list of the contract's types, a few
 * java.lang/java.util classes, arrays of those or of primitives, and RMI's own reference classes; anything else
 * is refused before it is instantiated (the defence against gadget chains that RMI otherwise leaves open).
 */
final class SerialFilter implements ObjectInputFilter {
    static final SerialFilter INSTANCE = new SerialFilter();

    private static final long MAX_DEPTH = 16;

    private static final Set<String> ALLOWED = Set.of(
            "java.lang.String", "java.lang.Boolean", "java.lang.Byte", "java.lang.Short", "java.lang.Integer",
            "java.lang.Long", "java.lang.Float", "java.lang.Double", "java.lang.Number",
            "java.util.ArrayList",
            SerialRecord.class.getName(), SerialBook.class.getName(), SerialItem.class.getName(),
            BenchError.class.getName(), "java.lang.Exception", "java.lang.Throwable",
            // remote references passed as arguments: the stub classes RMI itself writes
            "java.rmi.server.RemoteObject", "java.rmi.server.RemoteStub", "java.lang.reflect.Proxy",
            "java.rmi.server.RemoteObjectInvocationHandler", "java.rmi.server.UnicastRemoteObject");

    @Override
    public Status checkInput(FilterInfo info) {
        // Arrays are bounded in bytes before they are allocated: a count limit let double[16 Mi] hold 128 MiB.
        if (info.depth() > MAX_DEPTH || ArrayBudget.overBudget(info)) {
            return Status.REJECTED;
        }
        Class<?> type = info.serialClass();
        if (type == null) {
            return Status.UNDECIDED; // a limits-only check (references, depth): the limits above decided
        }
        while (type.isArray()) {
            type = type.getComponentType();
        }
        if (type.isPrimitive() || ALLOWED.contains(type.getName()) || isRmiProxyInterface(type)) {
            return Status.ALLOWED;
        }
        return Status.REJECTED;
    }

    /** A dynamic stub's interfaces: this module's remote interfaces and java.rmi.Remote. */
    private static boolean isRmiProxyInterface(Class<?> type) {
        return type == java.rmi.Remote.class || (type.isInterface() && java.rmi.Remote.class.isAssignableFrom(type)
                && type.getPackageName().equals(SerialFilter.class.getPackageName()));
    }
}
