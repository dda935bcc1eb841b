package org.rpcmatrix.core.contract;

/** Gredler's ten-field item; {@code created} and {@code updated} are timestamps (ms since the epoch, UTC). */
public record Item(long id, String title, String description, String category, String owner,
        long created, long updated, int quantity, double price, float weight) {
}
