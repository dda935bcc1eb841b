package org.rpcmatrix.corba;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.CalculatorClient;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Record;
import rpcmatrix.Bench;
import rpcmatrix.BenchHelper;
import rpcmatrix.Calculator;
import rpcmatrix.CalculatorFactory;
import rpcmatrix.CalculatorFactoryHelper;

/**
 * Stubs for the server's Bench and CalculatorFactory, found through the IOR files in {cell} (corba-ior) or the
 * naming service at the cell's address and port (corba-naming). One IIOP connection, reused for every call.
 */
final class CorbaClient implements BenchClient, CalculatorClient {
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

    private static BenchError fromIdl(rpcmatrix.BenchError e) {
        return new BenchError(e.code, e.message);
    }

    @Override
    public void ping() {
        bench.ping();
    }

    @Override
    public boolean echoBool(boolean value) {
        return bench.echoBool(value);
    }

    @Override
    public byte echoInt8(byte value) {
        return bench.echoInt8(value);
    }

    @Override
    public short echoInt16(short value) {
        return bench.echoInt16(value);
    }

    @Override
    public int echoInt32(int value) {
        return bench.echoInt32(value);
    }

    @Override
    public long echoInt64(long value) {
        return bench.echoInt64(value);
    }

    @Override
    public float echoFloat32(float value) {
        return bench.echoFloat32(value);
    }

    @Override
    public double echoFloat64(double value) {
        return bench.echoFloat64(value);
    }

    @Override
    public String echoString(String value) {
        return bench.echoString(value);
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return bench.echoBytes(value);
    }

    @Override
    public boolean isPrime(int n) {
        return bench.isPrime(n);
    }

    @Override
    public double average(double[] values) {
        return bench.average(values);
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws BenchError {
        try {
            return bench.randomDoubles(count, seed);
        } catch (rpcmatrix.BenchError e) {
            throw fromIdl(e);
        }
    }

    @Override
    public double[] logTransform(double[] values) {
        return bench.logTransform(values);
    }

    @Override
    public Record getRecord(String key) {
        return CorbaTypes.fromIdl(bench.getRecord(key));
    }

    @Override
    public List<Book> searchBooks(String query, int count) throws BenchError {
        try {
            return CorbaTypes.booksFromIdl(bench.searchBooks(query, count));
        } catch (rpcmatrix.BenchError e) {
            throw fromIdl(e);
        }
    }

    @Override
    public List<Item> getItems(int count) throws BenchError {
        try {
            return CorbaTypes.itemsFromIdl(bench.getItems(count));
        } catch (rpcmatrix.BenchError e) {
            throw fromIdl(e);
        }
    }

    @Override
    public void fail(int code, String message) throws BenchError {
        try {
            bench.fail(code, message);
        } catch (rpcmatrix.BenchError e) {
            throw fromIdl(e);
        }
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
