package org.rpcmatrix.javaserial;

import java.io.Serializable;
import java.util.ArrayList;

/** The contract's Book as Java serialization carries it; see {@link SerialRecord}. */
public record SerialBook(String title, ArrayList<String> authors, double price, double listPrice, String publisher,
        int year, int month, ArrayList<String> keywords, String isbn, int starRating, String url)
        implements Serializable {
    private static final long serialVersionUID = 1L;
}
