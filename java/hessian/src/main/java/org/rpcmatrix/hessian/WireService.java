package org.rpcmatrix.hessian;

import org.rpcmatrix.core.Bench;
import org.rpcmatrix.core.BenchError;

/** The server side: the contract's reference behaviour behind {@link WireApi}, values checked per carriage. */
final class WireService implements WireApi {
    private final Bench bench;

    WireService(Bench bench) {
        this.bench = bench;
    }

    @Override
    public void ping() {
        // nothing: the smallest round trip
    }

    @Override
    public boolean echoBool(boolean value) {
        return value;
    }

    @Override
    public int echoInt8(int value) {
        return Carriage.int8(value);
    }

    @Override
    public int echoInt16(int value) {
        return Carriage.int16(value);
    }

    @Override
    public int echoInt32(int value) {
        return value;
    }

    @Override
    public long echoInt64(long value) {
        return value;
    }

    @Override
    public double echoFloat32(double value) {
        return Carriage.float32(value);
    }

    @Override
    public double echoFloat64(double value) {
        return value;
    }

    @Override
    public String echoString(String value) {
        return value;
    }

    @Override
    public byte[] echoBytes(byte[] value) {
        return value;
    }

    @Override
    public boolean isPrime(int n) {
        return call(() -> bench.isPrime(n));
    }

    @Override
    public double average(double[] values) {
        return call(() -> bench.average(values));
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws WireFault {
        return checked(() -> bench.randomDoubles(count, seed));
    }

    @Override
    public double[] logTransform(double[] values) {
        return call(() -> bench.logTransform(values));
    }

    @Override
    public Object getRecord(String key) {
        return call(() -> WireStructs.WireRecord.of(bench.getRecord(key)));
    }

    @Override
    public Object searchBooks(String query, int count) throws WireFault {
        return checked(() -> WireStructs.books(bench.searchBooks(query, count)));
    }

    @Override
    public Object getItems(int count) throws WireFault {
        return checked(() -> WireStructs.items(bench.getItems(count)));
    }

    @Override
    public void fail(int code, String message) throws WireFault {
        checked(() -> {
            bench.fail(code, message);
            return null;
        });
    }

    private interface Body<T> {
        T run() throws Exception;
    }

    /** Runs an operation that declares BenchError, raised as the fault the carriage defines. */
    private static <T> T checked(Body<T> body) throws WireFault {
        try {
            return body.run();
        } catch (BenchError e) {
            throw new WireFault(e.code(), e.getMessage());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T call(Body<T> body) {
        try {
            return body.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
