package org.rpcmatrix.core.adapter;

/**
 * A client whose library sends traffic of its own beside the calls (RMI's distributed GC: clean calls after a
 * collection, lease renewals), on threads of its own and at moments set by its collector, not by the calls.
 * {@code measure} answers how much of it went by during the repetition, so the byte count of the calls can
 * leave it out and report it apart (runner/PROTOCOL.md, measure).
 */
public interface BackgroundTraffic {
    /** TCP payload bytes the library has sent ({@code [0]}) and received ({@code [1]}) on its own so far. */
    long[] backgroundBytes();
}
