package org.rpcmatrix.thrift;

import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFastFramedTransport;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.adapter.BenchClient;
import org.rpcmatrix.core.adapter.ClientOptions;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.mapping.OperationClient;

/**
 * The Thrift client: one persistent TSocket (TCP_NODELAY is TSocket's default) in a framed transport; each
 * call sends the operation's generated argument struct and reads its generated result struct, exactly as the
 * generated Bench.Client does, driven by the operation table. Received float32 values are checked to be
 * exactly a float32.
 */
final class ThriftClient extends OperationClient {
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    /** Far above any call of the contract; a stuck server fails the call instead of hanging the client. */
    private static final int SOCKET_TIMEOUT_MS = 120_000;

    private final TTransport transport;
    private final Calls calls;

    private ThriftClient(TTransport transport, TProtocol protocol) {
        this.transport = transport;
        this.calls = new Calls(protocol);
    }

    static BenchClient connect(ClientOptions options, Wire wire) throws Exception {
        TSocket socket = new TSocket(new TConfiguration(), options.host(), options.port(), SOCKET_TIMEOUT_MS,
                CONNECT_TIMEOUT_MS);
        // libthrift's framed transport that keeps its buffers (its cross test's "fastframed"): the same frames
        // on the wire, without a new array for every frame read.
        TTransport transport = new TFastFramedTransport(socket, ThriftServer.INITIAL_FRAME_BUFFER,
                ThriftServer.MAX_FRAME_BYTES);
        transport.open();
        return new ThriftClient(transport, wire.protocolFactory().getProtocol(transport));
    }

    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        ThriftOperation operation = ThriftOperation.TABLE.get(op);
        if (operation == null) {
            throw new UnsupportedOperationException(op.contractName() + " is not part of the Thrift service");
        }
        TBase<?, ?> request = operation.args().get();
        for (int i = 0; i < args.length; i++) {
            ThriftOperation.set(request, i + 1, operation.paramsToThrift().get(i).apply(args[i]));
        }
        TBase<?, ?> result = operation.result().get();
        calls.call(op.contractName(), request, result);
        if (ThriftOperation.isSet(result, ThriftOperation.ERROR)) {
            org.rpcmatrix.thrift.gen.BenchError error =
                    (org.rpcmatrix.thrift.gen.BenchError) ThriftOperation.get(result, ThriftOperation.ERROR);
            throw new BenchError(error.getCode(), error.getMessage());
        }
        if (operation.returnsVoid()) {
            return null;
        }
        if (!ThriftOperation.isSet(result, ThriftOperation.SUCCESS)) {
            throw new TApplicationException(TApplicationException.MISSING_RESULT, op.contractName() + " failed: unknown result");
        }
        return operation.resultFromThrift().apply(ThriftOperation.get(result, ThriftOperation.SUCCESS));
    }

    /** Thrift's own call framing (message header, sequence id, application exceptions) for any struct pair. */
    private static final class Calls extends TServiceClient {
        Calls(TProtocol protocol) {
            super(protocol);
        }

        void call(String method, TBase<?, ?> args, TBase<?, ?> result) throws TException {
            sendBase(method, args);
            receiveBase(result, method);
        }
    }

    @Override
    public void close() {
        transport.close();
    }
}
