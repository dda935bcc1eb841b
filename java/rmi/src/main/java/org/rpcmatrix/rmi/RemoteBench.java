package org.rpcmatrix.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;
import java.util.List;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.javaserial.JavaSerialMapping;
import org.rpcmatrix.javaserial.SerialBook;
import org.rpcmatrix.javaserial.SerialItem;
import org.rpcmatrix.javaserial.SerialRecord;

/**
 * The contract's operations (idl/contract.json) as an RMI remote interface, written by hand: RMI has no IDL
 * compiler. Structs travel as the Serializable records of the javaserial module; BenchError by serialization.
 * Served and called over the operation table ({@code OperationProxy}, {@code OperationCaller}) with
 * {@link JavaSerialMapping}: a dynamic proxy exported with UnicastRemoteObject, as any Remote object.
 */
public interface RemoteBench extends Remote {
    void ping() throws RemoteException;

    boolean echoBool(boolean value) throws RemoteException;

    byte echoInt8(byte value) throws RemoteException;

    short echoInt16(short value) throws RemoteException;

    int echoInt32(int value) throws RemoteException;

    long echoInt64(long value) throws RemoteException;

    float echoFloat32(float value) throws RemoteException;

    double echoFloat64(double value) throws RemoteException;

    String echoString(String value) throws RemoteException;

    byte[] echoBytes(byte[] value) throws RemoteException;

    boolean isPrime(int n) throws RemoteException;

    double average(double[] values) throws RemoteException;

    double[] randomDoubles(int count, long seed) throws RemoteException, BenchError;

    double[] logTransform(double[] values) throws RemoteException;

    SerialRecord getRecord(String key) throws RemoteException;

    List<SerialBook> searchBooks(String query, int count) throws RemoteException, BenchError;

    List<SerialItem> getItems(int count) throws RemoteException, BenchError;

    void fail(int code, String message) throws RemoteException, BenchError;
}
