package org.rpcmatrix.core;

import java.util.List;

/** Gray's "data" struct. Compare with {@link Comparison}, not equals(): arrays compare by identity. */
public record Record(long id, List<String> tags, double[] values) {
}
