package org.rpcmatrix.corba;

import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import javax.rmi.CORBA.Stub;
import javax.rmi.CORBA.StubDelegate;
import org.omg.CORBA.ORB;

/**
 * JacORB 3.9 touches javax.rmi.CORBA.Stub (RMI-IIOP), whose class initializer insists on a StubDelegate; the JDK
 * no longer has one and this module uses no RMI-IIOP stubs, so a delegate that refuses every use is enough.
 */
public final class NoStubDelegate implements StubDelegate {
    @Override
    public int hashCode(Stub self) {
        return System.identityHashCode(self);
    }

    @Override
    public boolean equals(Stub self, Object other) {
        return self == other;
    }

    @Override
    public String toString(Stub self) {
        return "RMI-IIOP stub (unsupported)";
    }

    @Override
    public void connect(Stub self, ORB orb) {
        throw new UnsupportedOperationException("RMI-IIOP stubs are not used here");
    }

    @Override
    public void readObject(Stub self, ObjectInputStream in) {
        throw new UnsupportedOperationException("RMI-IIOP stubs are not used here");
    }

    @Override
    public void writeObject(Stub self, ObjectOutputStream out) {
        throw new UnsupportedOperationException("RMI-IIOP stubs are not used here");
    }
}
