package org.rpcmatrix.corba;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.CalculatorClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationCaller;
import org.rpcmatrix.core.mapping.OperationClient;
import rpcmatrix.Bench;
import rpcmatrix.BenchHelper;
import rpcmatrix.BenchOperations;
import rpcmatrix.Calculator;
import rpcmatrix.CalculatorFactory;
import rpcmatrix.CalculatorFactoryHelper;

/**
 * Stubs for the server's Bench and CalculatorFactory, found through the IOR files in {cell} (corba-ior) or the
 * naming service at the cell's address and port (corba-naming). One IIOP connection, reused for every call.
 */
final class CorbaClient extends OperationClient implements CalculatorClient {
    private static final OperationCaller<BenchOperations> CALLS =
            OperationCaller.over(BenchOperations.class, CorbaMapping.INSTANCE);

    private final ORB orb;
    private final Bench bench;
    private final CalculatorFactory calculators;

    private CorbaClient(ORB orb, Bench bench, CalculatorFactory calculators) {
        this.orb = orb;
        this.bench = bench;
        this.calculators = calculators;
    }

    static BenchClient connect(ClientOptions options) throws Exception {
        boolean naming = Orbs.usesNaming(options.protocol().variant("reference"));
        return connect(options.host(), options.port(), naming, naming ? null : Orbs.cell());
    }

    static CorbaClient connect(String host, int port, boolean naming, Path cell) throws Exception {
        ORB orb = Orbs.init(null, 0);
        try {
            org.omg.CORBA.Object bench;
            org.omg.CORBA.Object calculators;
            if (naming) {
                NamingContextExt root = NamingContextExtHelper.narrow(orb.string_to_object(
                        "corbaloc::" + NamingService.hostForUrl(host) + ":" + port + "/NameService"));
                bench = root.resolve_str(Orbs.BENCH);
                calculators = root.resolve_str(Orbs.CALCULATORS);
            } else {
                bench = orb.string_to_object(read(cell.resolve(Orbs.BENCH_IOR)));
                calculators = orb.string_to_object(read(cell.resolve(Orbs.CALCULATORS_IOR)));
            }
            return new CorbaClient(orb, BenchHelper.narrow(bench), CalculatorFactoryHelper.narrow(calculators));
        } catch (Exception | Error e) {
            orb.shutdown(false);
            throw e;
        }
    }

    private static String read(Path file) throws Exception {
        return Files.readString(file, StandardCharsets.US_ASCII).strip();
    }

    /**
     * GIOP tags each request with an id and JacORB 3.9 multiplexes: concurrent calls of this client's ORB share its
     * one connection to the server (ClientConnection keeps a reply placeholder per request id, GIOPConnection
     * writes a message at a time under its write lock), each caller woken by the receptor thread with its reply.
     */
    @Override
    public boolean sharesConnection() {
        return true;
    }

    /** The contract's operations: the stub's, values per {@link CorbaMapping}. */
    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        return CALLS.call(bench, op, args);
    }

    @Override
    public Object create() {
        return calculators.create();
    }

    @Override
    public long add(Object calculator, long n) {
        return ((Calculator) calculator).add(n);
    }

    @Override
    public void clear(Object calculator) {
        ((Calculator) calculator).clear();
    }

    @Override
    public long total(Object calculator) {
        return ((Calculator) calculator).total();
    }

    @Override
    public void release(Object calculator) {
        ((Calculator) calculator).release();
    }

    @Override
    public boolean isNoSuchObject(Exception e) {
        return e instanceof OBJECT_NOT_EXIST;
    }

    @Override
    public void close() {
        orb.shutdown(false);
    }
}
