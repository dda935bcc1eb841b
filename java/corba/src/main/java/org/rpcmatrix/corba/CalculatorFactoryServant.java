package org.rpcmatrix.corba;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.omg.CORBA.INTERNAL;
import org.omg.CORBA.Policy;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import rpcmatrix.Calculator;
import rpcmatrix.CalculatorFactoryPOA;
import rpcmatrix.CalculatorHelper;

/**
 * create() activates a new Calculator servant in a POA of the calculators' own and returns its reference. Its
 * ids are ours, sixteen decimal digits each: the root POA's system ids are a counter whose bytes JacORB escapes
 * in the object key (POAUtil.maskId), so a calculator's key, which the client sends back in every call, changed
 * length with how many calculators had been made before, and with it the bytes counted per call.
 */
final class CalculatorFactoryServant extends CalculatorFactoryPOA {
    static final String POA_NAME = "calculators";
    private final POA poa;
    private final AtomicLong made = new AtomicLong();

    CalculatorFactoryServant(POA poa) {
        this.poa = poa;
    }

    /** The calculators' POA under ROOT, sharing its manager: user ids, the other policies the defaults. */
    static POA calculatorsPoa(POA root) throws org.omg.CORBA.UserException {
        Policy[] policies = {root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID)};
        return root.create_POA(POA_NAME, root.the_POAManager(), policies);
    }

    /** The id of the n-th calculator: sixteen ASCII digits, bytes JacORB never escapes in a key. */
    static byte[] calculatorId(long n) {
        return String.format("%016d", n).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public Calculator create() {
        CalculatorServant servant = new CalculatorServant(poa);
        try {
            byte[] id = calculatorId(made.incrementAndGet());
            poa.activate_object_with_id(id, servant);
            servant.activated(id);
            return CalculatorHelper.narrow(poa.id_to_reference(id));
        } catch (org.omg.CORBA.UserException e) {
            throw new INTERNAL("cannot activate a calculator: " + e);
        }
    }
}
