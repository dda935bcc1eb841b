package org.rpcmatrix.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The contract's Calculator (CONTRACT.md#objects): one remote object per create(). */
public interface RemoteCalculator extends Remote {
    long add(long n) throws RemoteException;

    void clear() throws RemoteException;

    long total() throws RemoteException;

    /** Unexports this calculator: later calls raise NoSuchObjectException. */
    void release() throws RemoteException;
}
