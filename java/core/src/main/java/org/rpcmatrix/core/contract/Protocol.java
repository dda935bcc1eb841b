package org.rpcmatrix.core.contract;

import java.util.List;
import java.util.Map;

/**
 * One protocol of idl/protocols.json: its family ("grpc"), its variant ({"security": "tls"}), the capabilities
 * it has and those it lacks with the reason.
 */
public record Protocol(String name, String family, Map<String, String> variant, List<String> has,
        Map<String, String> lacks) {

    /** The variant's value for {@code key} ("security"), or null when the registry gives none. */
    public String variant(String key) {
        return variant.get(key);
    }

    /** True for a gzip variant ({"compression": "gzip"}: every body compressed both ways), false for none. */
    public boolean gzip() {
        String compression = variant.getOrDefault("compression", "none");
        return switch (compression) {
            case "none" -> false;
            case "gzip" -> true;
            default -> throw new IllegalArgumentException("protocol '" + name + "': unknown compression '"
                    + compression + "'");
        };
    }

    /** The reason this protocol cannot carry something that needs {@code needs}, or null when it can. */
    public String unsupportedReason(Iterable<String> needs) {
        for (String need : needs) {
            String reason = lacks.get(need);
            if (reason != null) {
                return reason;
            }
        }
        return null;
    }
}
