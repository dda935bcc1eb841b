package org.rpcmatrix.corba;

import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAPackage.ObjectNotActive;
import org.omg.PortableServer.POAPackage.WrongPolicy;
import org.rpcmatrix.core.reference.ReferenceCalculator;
import rpcmatrix.CalculatorPOA;

/**
 * One calculator, activated in the root POA by the factory; release() deactivates it. The POA removes it from
 * its active object map only once release()'s own request has completed, so a call racing that removal is
 * refused here too, with the same OBJECT_NOT_EXIST.
 */
final class CalculatorServant extends CalculatorPOA {
    private final ReferenceCalculator calculator = new ReferenceCalculator();
    private final POA poa;
    private byte[] id;
    private volatile boolean released;

    CalculatorServant(POA poa) {
        this.poa = poa;
    }

    void activated(byte[] objectId) {
        this.id = objectId;
    }

    private void live() {
        if (released) {
            throw new OBJECT_NOT_EXIST("calculator released");
        }
    }

    @Override
    public synchronized long add(long n) {
        live();
        return calculator.add(n);
    }

    @Override
    public synchronized void clear() {
        live();
        calculator.clear();
    }

    @Override
    public synchronized long total() {
        live();
        return calculator.total();
    }

    @Override
    public void release() {
        live();
        released = true;
        try {
            poa.deactivate_object(id);
        } catch (ObjectNotActive | WrongPolicy e) {
            throw new OBJECT_NOT_EXIST("calculator already deactivated: " + e);
        }
    }
}
