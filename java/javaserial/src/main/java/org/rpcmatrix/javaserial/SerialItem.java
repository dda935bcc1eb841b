package org.rpcmatrix.javaserial;

import java.io.Serializable;

/** The contract's Item as Java serialization carries it; see {@link SerialRecord}. */
public record SerialItem(long id, String title, String description, String category, String owner, long created,
        long updated, int quantity, double price, float weight) implements Serializable {
    private static final long serialVersionUID = 1L;
}
