package org.rpcmatrix.corba;

import java.nio.file.Path;
import java.util.Properties;
import org.omg.CORBA.ORB;

/** JacORB ORBs as every process here configures them, and the settings both roles share. */
final class Orbs {
    /** The names a server publishes (CONTRACT.md#objects): in the naming service, and as files in {cell}. */
    static final String BENCH = "Bench";
    static final String CALCULATORS = "CalculatorFactory";
    static final String BENCH_IOR = "bench.ior";
    static final String CALCULATORS_IOR = "calculators.ior";

    private Orbs() {
    }

    /**
     * An ORB; with a host, also its object adapter's listen address (port 0: the ORB picks one). JacORB sets
     * TCP_NODELAY on every connection it opens or accepts (no setting needed); UTF-8 is the native char code set,
     * so strings are carried as UTF-8 with any peer that offers it.
     */
    static ORB init(String host, int port) {
        System.setProperty("javax.rmi.CORBA.StubClass", NoStubDelegate.class.getName());
        Properties p = new Properties();
        p.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        p.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        p.setProperty("jacorb.native_char_codeset", "UTF8");
        p.setProperty("jacorb.log.default.verbosity", "1");
        if (host != null) {
            p.setProperty("OAIAddr", host);
            if (port != 0) {
                p.setProperty("OAPort", Integer.toString(port));
            }
        }
        return ORB.init(new String[0], p);
    }

    /** The scratch folder the runner gives a cell's server and client ({cell}), passed as -Drpcmatrix.cell. */
    static Path cell() {
        String cell = System.getProperty("rpcmatrix.cell");
        if (cell == null || cell.isEmpty()) {
            throw new IllegalArgumentException("corba-ior needs the cell folder: -Drpcmatrix.cell={cell}");
        }
        return Path.of(cell);
    }

    static boolean usesNaming(String reference) {
        return "naming-service".equals(reference);
    }
}
