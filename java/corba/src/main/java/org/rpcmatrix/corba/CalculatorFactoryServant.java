package org.rpcmatrix.corba;

import org.omg.CORBA.INTERNAL;
import org.omg.PortableServer.POA;
import rpcmatrix.Calculator;
import rpcmatrix.CalculatorFactoryPOA;
import rpcmatrix.CalculatorHelper;

/** create() activates a new Calculator servant in the root POA and returns its reference. */
final class CalculatorFactoryServant extends CalculatorFactoryPOA {
    private final POA poa;

    CalculatorFactoryServant(POA poa) {
        this.poa = poa;
    }

    @Override
    public Calculator create() {
        CalculatorServant servant = new CalculatorServant(poa);
        try {
            byte[] id = poa.activate_object(servant);
            servant.activated(id);
            return CalculatorHelper.narrow(poa.id_to_reference(id));
        } catch (org.omg.CORBA.UserException e) {
            throw new INTERNAL("cannot activate a calculator: " + e);
        }
    }
}
