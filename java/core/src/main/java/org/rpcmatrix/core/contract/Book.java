package org.rpcmatrix.core.contract;

import java.util.List;

/** Gray's "large data" struct. */
public record Book(String title, List<String> authors, double price, double listPrice, String publisher,
        int year, int month, List<String> keywords, String isbn, int starRating, String url) {
}
