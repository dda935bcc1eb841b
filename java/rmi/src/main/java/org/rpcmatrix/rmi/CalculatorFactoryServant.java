package org.rpcmatrix.rmi;

import java.rmi.RemoteException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exports each new calculator on the server's one port, with its socket factories and deserialization filter,
 * and holds it until its release(). A session's end is explicit in the contract, so the server does not leave
 * a calculator's life to RMI's distributed GC alone: an exported object that only the DGC keeps is collected
 * once the object table holds it weakly, which a late or failed dirty call from the client allows, and the
 * client's next call then fails with "no such object in table".
 */
final class CalculatorFactoryServant implements RemoteCalculatorFactory {
    private final RmiServer.Exporter exporter;
    private final Set<CalculatorServant> live = ConcurrentHashMap.newKeySet();

    CalculatorFactoryServant(RmiServer.Exporter exporter) {
        this.exporter = exporter;
    }

    @Override
    public RemoteCalculator create() throws RemoteException {
        CalculatorServant calculator = new CalculatorServant(live::remove);
        live.add(calculator);
        return (RemoteCalculator) exporter.export(calculator);
    }

    /** Calculators created and not yet released. */
    int live() {
        return live.size();
    }
}
