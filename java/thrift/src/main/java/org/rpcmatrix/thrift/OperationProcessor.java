package org.rpcmatrix.thrift;

import java.util.HashMap;
import java.util.Map;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TBaseProcessor;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolException;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Bench;

/**
 * The Thrift server adapter, built from the operation table: a processor with one function per operation
 * that reads the generated argument struct, calls the contract's Bench through
 * {@link org.rpcmatrix.core.contract.Operation#invoke} and fills the generated result struct.
 */
final class OperationProcessor extends TBaseProcessor<Bench> {
    OperationProcessor(Bench bench) {
        super(bench, functions());
    }

    // libthrift declares ProcessFunction<I, T extends TBase> and TBaseProcessor's map with the raw TBase
    @SuppressWarnings("rawtypes")
    private static Map<String, ProcessFunction<Bench, ? extends TBase>> functions() {
        Map<String, ProcessFunction<Bench, ? extends TBase>> functions = new HashMap<>();
        for (ThriftOperation operation : ThriftOperation.TABLE.values()) {
            functions.put(operation.op().contractName(), new Function(operation));
        }
        return functions;
    }

    @SuppressWarnings("rawtypes")
    private static final class Function extends ProcessFunction<Bench, TBase> {
        private final ThriftOperation operation;

        Function(ThriftOperation operation) {
            super(operation.op().contractName());
            this.operation = operation;
        }

        @Override
        protected boolean isOneway() {
            return false;
        }

        @Override
        public TBase getEmptyArgsInstance() {
            return operation.args().get();
        }

        /**
         * The contract's BenchError travels as the declared exception: every operation that can raise it (fail,
         * and those taking a count) declares it in bench.thrift. Any other error travels as a
         * TApplicationException that says what went wrong (the processor would otherwise send only
         * "Internal error processing ...").
         */
        @Override
        public TBase getResult(Bench bench, TBase args) throws TException {
            TBase result = operation.result().get();
            try {
                Object[] values = new Object[operation.paramsFromThrift().size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = operation.paramsFromThrift().get(i).apply(ThriftOperation.get(args, i + 1));
                }
                Object answer = operation.op().invoke(bench, values);
                if (!operation.returnsVoid()) {
                    ThriftOperation.set(result, ThriftOperation.SUCCESS, operation.resultToThrift().apply(answer));
                }
            } catch (BenchError e) {
                if (ThriftOperation.field(result, ThriftOperation.ERROR) == null) {
                    throw new TApplicationException(TApplicationException.INTERNAL_ERROR, e.toString());
                }
                ThriftOperation.set(result, ThriftOperation.ERROR,
                        new org.rpcmatrix.thrift.gen.BenchError(e.code(), e.getMessage()));
            } catch (TProtocolException e) {
                throw new TApplicationException(TApplicationException.PROTOCOL_ERROR, e.getMessage());
            } catch (Exception e) {
                throw new TApplicationException(TApplicationException.INTERNAL_ERROR, e.toString());
            }
            return result;
        }
    }
}
