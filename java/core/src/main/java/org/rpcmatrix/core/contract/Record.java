package org.rpcmatrix.core.contract;

import java.util.List;
import org.rpcmatrix.core.conformance.Comparison;

/** Gray's "data" struct. Compare with {@link Comparison}, not equals(): arrays compare by identity. */
public record Record(long id, List<String> tags, double[] values) {
}
