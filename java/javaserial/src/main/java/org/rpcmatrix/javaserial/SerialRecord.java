package org.rpcmatrix.javaserial;

import java.io.Serializable;
import java.util.ArrayList;

/**
 * The contract's Record as Java serialization carries it (core's records are not Serializable). The class name
 * and serialVersionUID travel in every answer that holds one, and the servers' deserialization filters allow it
 * by name; the list is an ArrayList, a class those filters allow.
 */
public record SerialRecord(long id, ArrayList<String> tags, double[] values) implements Serializable {
    private static final long serialVersionUID = 1L;
}
