package org.rpcmatrix.rawtcp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import org.rpcmatrix.core.BenchClient;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.Operation;
import org.rpcmatrix.core.Record;

/** The raw TCP client: one persistent connection, sequential calls. Not thread-safe. */
public final class RawTcpClient implements BenchClient {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final RawTcpCodec.Writer request = new RawTcpCodec.Writer();

    private RawTcpClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
        this.out = new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES);
    }

    public static RawTcpClient connect(ClientOptions options) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(options.host(), options.port()));
            return new RawTcpClient(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends one request and returns the decoded result (null for void); raises the server's errors. */
    private Object call(Operation op, Object... args) throws Exception {
        request.reset();
        request.i16(op.id());
        for (int i = 0; i < args.length; i++) {
            request.value(op.paramTypes().get(i), args[i]);
        }
        request.writeTo(out);
        byte[] body = RawTcpCodec.readFrame(in);
        if (body == null) {
            throw new EOFException("server closed the connection");
        }
        RawTcpCodec.Reader response = new RawTcpCodec.Reader(body);
        int status = response.u8();
        switch (status) {
            case RawTcpCodec.STATUS_OK: {
                Object value = response.value(op.returnType());
                response.expectEnd();
                return value;
            }
            case RawTcpCodec.STATUS_BENCH_ERROR: {
                int code = response.i32();
                String message = response.string();
                response.expectEnd();
                throw new BenchError(code, message);
            }
            case RawTcpCodec.STATUS_OTHER_ERROR:
                throw new IOException("server error: " + response.string());
            default:
                throw new IOException("unknown response status " + status);
        }
    }

    @Override
    public void ping() throws Exception {
        call(Operation.PING);
    }

    @Override
    public boolean echoBool(boolean value) throws Exception {
        return (Boolean) call(Operation.ECHO_BOOL, value);
    }

    @Override
    public byte echoInt8(byte value) throws Exception {
        return (Byte) call(Operation.ECHO_INT8, value);
    }

    @Override
    public short echoInt16(short value) throws Exception {
        return (Short) call(Operation.ECHO_INT16, value);
    }

    @Override
    public int echoInt32(int value) throws Exception {
        return (Integer) call(Operation.ECHO_INT32, value);
    }

    @Override
    public long echoInt64(long value) throws Exception {
        return (Long) call(Operation.ECHO_INT64, value);
    }

    @Override
    public float echoFloat32(float value) throws Exception {
        return (Float) call(Operation.ECHO_FLOAT32, value);
    }

    @Override
    public double echoFloat64(double value) throws Exception {
        return (Double) call(Operation.ECHO_FLOAT64, value);
    }

    @Override
    public String echoString(String value) throws Exception {
        return (String) call(Operation.ECHO_STRING, value);
    }

    @Override
    public byte[] echoBytes(byte[] value) throws Exception {
        return (byte[]) call(Operation.ECHO_BYTES, (Object) value);
    }

    @Override
    public boolean isPrime(int n) throws Exception {
        return (Boolean) call(Operation.IS_PRIME, n);
    }

    @Override
    public double average(double[] values) throws Exception {
        return (Double) call(Operation.AVERAGE, (Object) values);
    }

    @Override
    public double[] randomDoubles(int count, long seed) throws Exception {
        return (double[]) call(Operation.RANDOM_DOUBLES, count, seed);
    }

    @Override
    public double[] logTransform(double[] values) throws Exception {
        return (double[]) call(Operation.LOG_TRANSFORM, (Object) values);
    }

    @Override
    public Record getRecord(String key) throws Exception {
        return (Record) call(Operation.GET_RECORD, key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Book> searchBooks(String query, int count) throws Exception {
        return (List<Book>) call(Operation.SEARCH_BOOKS, query, count);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Item> getItems(int count) throws Exception {
        return (List<Item>) call(Operation.GET_ITEMS, count);
    }

    @Override
    public void fail(int code, String message) throws Exception {
        call(Operation.FAIL, code, message);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
