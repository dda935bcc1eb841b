package org.rpcmatrix.core.adapter;

import java.util.Map;

/**
 * A client that measures more than one instantiation time at connect (e.g. RMI: with the registry lookup, and
 * from an already-obtained stub); each figure goes into connect's answer beside {@code instantiation_ns}.
 */
public interface ConnectFigures {
    /** Field name (ending in {@code _ns}) to nanoseconds, measured during the last connect. */
    Map<String, Long> connectFigures();
}
