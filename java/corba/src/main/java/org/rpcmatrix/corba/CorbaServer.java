package org.rpcmatrix.corba;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.jacorb.orb.ParsedIOR;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;
import org.rpcmatrix.core.adapter.RunningServer;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.mapping.OperationProxy;
import org.rpcmatrix.core.reference.InjectedSpin;
import rpcmatrix.BenchOperations;
import rpcmatrix.BenchPOATie;

/**
 * Bench and CalculatorFactory servants in JacORB's root POA, listening on the cell's address. corba-ior: their
 * stringified IORs are written to {cell} before the ready line; corba-naming: they are bound in a naming service
 * started as a child process, whose port is the ready line's.
 */
final class CorbaServer implements RunningServer {
    private final ORB orb;
    private final Thread orbThread;
    private final NamingService naming;
    private final int port;
    private final int iiopPort;

    private CorbaServer(ORB orb, Thread orbThread, NamingService naming, int port, int iiopPort) {
        this.orb = orb;
        this.orbThread = orbThread;
        this.naming = naming;
        this.port = port;
        this.iiopPort = iiopPort;
    }

    static RunningServer start(ServerOptions options) throws Exception {
        boolean naming = Orbs.usesNaming(options.protocol().variant("reference"));
        return start(options.host(), options.port(), naming, Orbs.cell());
    }

    static CorbaServer start(String host, int port, boolean useNaming, Path cell) throws Exception {
        ORB orb = Orbs.init(host, port);
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        root.the_POAManager().activate();
        // The generated tie servant (the POA skeleton, delegating to BenchOperations) over the operation table.
        org.omg.CORBA.Object bench = root.servant_to_reference(new BenchPOATie(
                OperationProxy.serve(BenchOperations.class, InjectedSpin.served(), CorbaMapping.INSTANCE)));
        org.omg.CORBA.Object calculators = root.servant_to_reference(
                new CalculatorFactoryServant(CalculatorFactoryServant.calculatorsPoa(root)));
        int iiopPort = iiopPort(orb, bench);
        Thread orbThread = new Thread(orb::run, "orb-run");
        orbThread.setDaemon(true);
        orbThread.start();
        if (useNaming) {
            NamingService service = NamingService.start(orb, host, cell);
            try {
                service.bind(Orbs.BENCH, bench);
                service.bind(Orbs.CALCULATORS, calculators);
            } catch (Exception e) {
                service.close();
                throw e;
            }
            return new CorbaServer(orb, orbThread, service, service.port(), iiopPort);
        }
        writeAtomically(cell.resolve(Orbs.BENCH_IOR), orb.object_to_string(bench));
        writeAtomically(cell.resolve(Orbs.CALCULATORS_IOR), orb.object_to_string(calculators));
        return new CorbaServer(orb, orbThread, null, iiopPort, iiopPort);
    }

    /** The port the ORB listens on, as its own IOR for the object says (port 0 lets the ORB choose). */
    private static int iiopPort(ORB orb, org.omg.CORBA.Object reference) {
        ParsedIOR ior = new ParsedIOR((org.jacorb.orb.ORB) orb, orb.object_to_string(reference));
        IIOPProfile profile = (IIOPProfile) ior.getEffectiveProfile();
        return ((IIOPAddress) profile.getAddress()).getPort();
    }

    /** A temporary name, then a rename: a reader never sees half a file. */
    private static void writeAtomically(Path file, String content) throws Exception {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(partial, content, StandardCharsets.US_ASCII);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Map<String, String> facts() {
        return naming == null ? Map.of("iiop_port", Integer.toString(iiopPort))
                : Map.of("iiop_port", Integer.toString(iiopPort), "naming_service", "omniNames");
    }

    @Override
    public void stop() throws Exception {
        try {
            if (naming != null) {
                naming.close();
            }
        } finally {
            orb.shutdown(false);
            orbThread.join(2000);
        }
    }
}
