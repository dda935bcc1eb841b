package org.rpcmatrix.rmi;

import java.io.Serializable;
import java.util.ArrayList;

/**
 * The contract's structs as Serializable records (core's are not Serializable); {@link RmiMapping} converts
 * them. Their class names travel in every serialized answer (and {@link SerialFilter} allows them by name),
 * so they stay here. Lists travel as ArrayList, a class the server's deserialization filter allows.
 */
public final class RmiTypes {
    private RmiTypes() {
    }

    public record RmiRecord(long id, ArrayList<String> tags, double[] values) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    public record RmiBook(String title, ArrayList<String> authors, double price, double listPrice, String publisher,
            int year, int month, ArrayList<String> keywords, String isbn, int starRating, String url)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    public record RmiItem(long id, String title, String description, String category, String owner,
            long created, long updated, int quantity, double price, float weight) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
