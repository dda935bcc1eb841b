package org.rpcmatrix.rmi;

import java.rmi.RemoteException;

/** Exports each new calculator on the server's one port, with its socket factories and deserialization filter. */
final class CalculatorFactoryServant implements RemoteCalculatorFactory {
    private final RmiServer.Exporter exporter;

    CalculatorFactoryServant(RmiServer.Exporter exporter) {
        this.exporter = exporter;
    }

    @Override
    public RemoteCalculator create() throws RemoteException {
        return (RemoteCalculator) exporter.export(new CalculatorServant());
    }
}
