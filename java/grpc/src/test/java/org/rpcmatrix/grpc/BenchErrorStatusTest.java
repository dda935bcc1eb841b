package org.rpcmatrix.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.BenchError;

class BenchErrorStatusTest {
    @Test
    void benchErrorTravelsAsFailedPreconditionWithTheCodeInTheTrailers() {
        StatusRuntimeException status = BenchErrorStatus.toStatus(new BenchError(418, "I'm a teapot"));
        assertEquals(Status.Code.FAILED_PRECONDITION, status.getStatus().getCode());
        assertEquals("I'm a teapot", status.getStatus().getDescription());
        assertEquals("418", status.getTrailers().get(BenchErrorStatus.CODE_KEY));
    }

    @Test
    void bothHalvesMakeABenchError() {
        BenchError error = assertInstanceOf(BenchError.class,
                BenchErrorStatus.fromStatus(BenchErrorStatus.toStatus(new BenchError(-7, "négatif ✓"))));
        assertEquals(-7, error.code());
        assertEquals("négatif ✓", error.getMessage());
    }

    @Test
    void failedPreconditionWithoutTheCodeIsNotABenchError() {
        StatusRuntimeException status =
                Status.FAILED_PRECONDITION.withDescription("no code").asRuntimeException(new Metadata());
        assertInstanceOf(IllegalStateException.class, BenchErrorStatus.fromStatus(status));
    }

    @Test
    void theCodeUnderAnotherStatusIsNotABenchError() {
        Metadata trailers = new Metadata();
        trailers.put(BenchErrorStatus.CODE_KEY, "400");
        StatusRuntimeException status = Status.INTERNAL.withDescription("x").asRuntimeException(trailers);
        assertInstanceOf(IllegalStateException.class, BenchErrorStatus.fromStatus(status));
    }

    @Test
    void aCodeThatIsNotDecimalIsNotABenchError() {
        Metadata trailers = new Metadata();
        trailers.put(BenchErrorStatus.CODE_KEY, "0x10");
        StatusRuntimeException status =
                Status.FAILED_PRECONDITION.withDescription("x").asRuntimeException(trailers);
        assertInstanceOf(IllegalStateException.class, BenchErrorStatus.fromStatus(status));
    }

    @Test
    void otherFailuresStayGrpcErrors() {
        StatusRuntimeException status = Status.UNAVAILABLE.asRuntimeException();
        assertSame(status, BenchErrorStatus.fromStatus(status));
        StatusRuntimeException rejected =
                BenchErrorStatus.toStatus(new IllegalArgumentException("int8 out of range: 300"));
        assertEquals(Status.Code.INVALID_ARGUMENT, rejected.getStatus().getCode());
    }
}
