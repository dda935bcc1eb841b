package org.rpcmatrix.grpc;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.rpcmatrix.core.BenchError;

/**
 * How BenchError travels over gRPC (CONTRACT.md#carriage): status FAILED_PRECONDITION, the contract
 * message as the status description, the contract code in the trailing metadata key bench-error-code
 * (decimal). Any other failure travels as the status that fits it.
 */
final class BenchErrorStatus {
    static final Metadata.Key<String> CODE_KEY =
            Metadata.Key.of("bench-error-code", Metadata.ASCII_STRING_MARSHALLER);

    private BenchErrorStatus() {}

    /** The status a server answers with when a call throws {@code error}. */
    static StatusRuntimeException toStatus(Throwable error) {
        if (error instanceof BenchError benchError) {
            Metadata trailers = new Metadata();
            trailers.put(CODE_KEY, Integer.toString(benchError.code()));
            return Status.FAILED_PRECONDITION.withDescription(benchError.getMessage())
                    .asRuntimeException(trailers);
        }
        if (error instanceof StatusRuntimeException statusError) {
            return statusError;
        }
        if (error instanceof IllegalArgumentException) {
            return Status.INVALID_ARGUMENT.withDescription(error.getMessage()).withCause(error)
                    .asRuntimeException();
        }
        if (error instanceof UnsupportedOperationException) {
            return Status.UNIMPLEMENTED.withDescription(error.getMessage()).withCause(error)
                    .asRuntimeException();
        }
        return Status.INTERNAL.withDescription(String.valueOf(error)).withCause(error).asRuntimeException();
    }

    /**
     * What a client throws for a failed call: a BenchError when the status is FAILED_PRECONDITION and
     * carries a decimal bench-error-code; otherwise the gRPC exception itself, so a malformed error
     * (one half of the pair missing) is never taken for a contract error.
     */
    static Exception fromStatus(StatusRuntimeException error) {
        Metadata trailers = error.getTrailers();
        String code = trailers == null ? null : trailers.get(CODE_KEY);
        boolean failedPrecondition = error.getStatus().getCode() == Status.Code.FAILED_PRECONDITION;
        if (code == null && !failedPrecondition) {
            return error;
        }
        if (code == null || !failedPrecondition) {
            return new IllegalStateException("malformed BenchError: status " + error.getStatus().getCode()
                    + " with bench-error-code " + code + ": " + error.getStatus().getDescription(), error);
        }
        int parsed;
        try {
            parsed = Integer.parseInt(code);
        } catch (NumberFormatException notDecimal) {
            return new IllegalStateException("malformed bench-error-code: " + code, error);
        }
        String message = error.getStatus().getDescription();
        return new BenchError(parsed, message == null ? "" : message);
    }
}
