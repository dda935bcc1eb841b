package org.rpcmatrix.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** Bound as "CalculatorFactory" beside "Bench": create() exports a new calculator and returns its stub. */
public interface RemoteCalculatorFactory extends Remote {
    RemoteCalculator create() throws RemoteException;
}
