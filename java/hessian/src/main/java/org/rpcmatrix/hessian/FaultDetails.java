package org.rpcmatrix.hessian;

import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.AbstractSerializer;
import com.caucho.hessian.io.AbstractSerializerFactory;
import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.HessianServiceException;
import com.caucho.hessian.io.Serializer;
import com.caucho.hessian.io.SerializerFactory;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.HashMap;
import java.util.Map;
import org.rpcmatrix.core.BenchError;

/**
 * The carriage of BenchError (idl/CONTRACT.md): Caucho's skeletons answer an exception with the fault
 * {@code code = "ServiceException"}, {@code message} (HTML-escaped by HessianSkeleton) and {@code detail} = the
 * exception object. Serialized field by field, a Throwable means nothing outside Java (and its JDK fields are
 * closed to reflection since Java 16), so the detail is written as the untyped map
 * {@code {"code": int, "message": string}} instead, which every language reads, and the client takes the
 * contract's code and exact message from it.
 */
final class FaultDetails {
    static final int INTERNAL_ERROR = -32603;

    private FaultDetails() {
    }

    /** A serializer factory that writes every Throwable as the detail map and loads only the contract's classes. */
    static SerializerFactory serializerFactory() {
        SerializerFactory factory = ContractClasses.restrict(new SerializerFactory());
        factory.addFactory(new AbstractSerializerFactory() {
            @Override
            @SuppressWarnings("rawtypes") // Caucho's AbstractSerializerFactory declares the raw Class
            public Serializer getSerializer(Class cl) {
                return Throwable.class.isAssignableFrom(cl) ? DETAIL : null;
            }

            @Override
            @SuppressWarnings("rawtypes") // as above
            public Deserializer getDeserializer(Class cl) {
                return null;
            }
        });
        return factory;
    }

    static Map<String, Object> detail(Throwable error) {
        int code;
        if (error instanceof WireFault fault) {
            code = fault.code();
        } else if (error instanceof HessianMapping.InvalidParams) {
            code = HessianMapping.INVALID_PARAMS;
        } else {
            code = INTERNAL_ERROR;
        }
        Map<String, Object> detail = new HashMap<>();
        detail.put("code", code);
        detail.put("message", error.getMessage() == null ? error.toString() : error.getMessage());
        return detail;
    }

    private static final Serializer DETAIL = new AbstractSerializer() {
        @Override
        public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
            out.writeObject(detail((Throwable) obj));
        }
    };

    /**
     * The client side: a fault whose detail is the map becomes the contract's BenchError; anything else is not
     * an answer of the contract and is returned as it is.
     */
    static Exception toBenchError(Throwable error) {
        if (error instanceof UndeclaredThrowableException wrapped) {
            // The proxy wraps what the interface does not declare, such as Hessian's checked fault exception.
            error = wrapped.getUndeclaredThrowable();
        }
        if (error instanceof HessianServiceException fault && fault.getDetail() instanceof Map<?, ?> detail
                && detail.get("code") instanceof Integer code && detail.get("message") instanceof String message) {
            return new BenchError(code, message);
        }
        return error instanceof Exception e ? e : new RuntimeException(error);
    }
}
