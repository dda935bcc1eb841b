package org.rpcmatrix.core.mapping;

import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Item;

/**
 * How one family carries the contract's values in the Java interface its library dispatches on (Python's
 * {@code to_wire}/{@code from_wire} of a family's {@code mapping.py}): a converter per contract type name
 * ("int8", "float64[]", "Item[]", "void"), both ways, and the family's form of BenchError. The same mapping
 * serves the server ({@link OperationProxy}: arguments from the wire, result to the wire) and the client
 * ({@link OperationCaller}: arguments to the wire, result from the wire). Converters are picked once per
 * operation, not per call.
 */
public interface WireMapping {
    /** Converts one value; may refuse it (a value outside its contract type is never truncated). */
    @FunctionalInterface
    interface Converter {
        Object convert(Object value) throws Exception;
    }

    /** For a type whose contract value is already what the family's interface declares. */
    Converter SAME = value -> value;

    /**
     * Contract value (core's Java types: Byte for int8, double[] for float64[], List of Item for Item[]) to the
     * value the family's interface declares for {@code type}; exactly the declared type, boxed (a proxy method
     * returning {@code int} needs an Integer).
     */
    Converter toWire(String type);

    /** The family's value of {@code type} to the contract value; refuses what does not fit. */
    Converter fromWire(String type);

    /** What a server raises for the contract's BenchError: by default BenchError itself, for an interface that declares it. */
    default Exception fault(BenchError error) {
        return error;
    }

    /**
     * What a client raises for what a call raised: the contract's BenchError when the family's error carries one,
     * anything else as it is.
     */
    default Exception error(Exception raised) {
        return raised;
    }
}
