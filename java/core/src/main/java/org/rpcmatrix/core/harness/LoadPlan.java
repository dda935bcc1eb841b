package org.rpcmatrix.core.harness;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of a {@code load} command (runner/PROTOCOL.md#load), checked: a field of the wrong type or out of
 * range is refused with a message naming it. {@code rate} is 0 for a closed loop; times are nanoseconds.
 */
record LoadPlan(int connections, int inFlight, long durationNs, long warmupNs, double rate, String arrival,
        long seed, long lateNs, long timeoutNs) {
    static final String CONSTANT = "constant";
    static final String POISSON = "poisson";
    /** A day: longer windows are a mistake, and their nanoseconds would come near a long's range. */
    static final double MAX_MS = 86_400_000;
    /** Calls per second: far above any client here (the Poisson schedule counts its dropped calls one by one). */
    static final double MAX_RATE = 1_000_000;

    boolean open() {
        return rate > 0;
    }

    static LoadPlan of(JsonNode command) {
        int connections = positiveInt(command, "connections", 1);
        int inFlight = positiveInt(command, "in_flight", connections);
        long durationNs = millis(command, "duration_ms", null, false);
        long warmupNs = millis(command, "warmup_ms", 0.0, true);
        double rate = 0;
        JsonNode rateField = command.get("rate");
        if (rateField != null && !rateField.isNull()) {
            if (!rateField.isNumber() || !(rateField.doubleValue() > 0) || rateField.doubleValue() > MAX_RATE) {
                throw new IllegalArgumentException("load: \"rate\" must be a positive number of calls per second, at"
                        + " most " + (long) MAX_RATE + " (absent: a closed loop)");
            }
            rate = rateField.doubleValue();
        }
        JsonNode arrivalField = command.get("arrival");
        String arrival = CONSTANT;
        if (arrivalField != null && !arrivalField.isNull()) {
            arrival = arrivalField.isTextual() ? arrivalField.textValue() : "";
            if (!arrival.equals(CONSTANT) && !arrival.equals(POISSON)) {
                throw new IllegalArgumentException("load: \"arrival\" must be \"constant\" or \"poisson\"");
            }
        }
        long seed = 1;
        JsonNode seedField = command.get("seed");
        if (seedField != null && !seedField.isNull()) {
            if (!seedField.isIntegralNumber() || !seedField.canConvertToLong()) {
                throw new IllegalArgumentException("load: \"seed\" must be an integer");
            }
            seed = seedField.longValue();
        }
        long lateNs = millis(command, "late_ms", 1.0, false);
        long timeoutNs = millis(command, "timeout_ms", 10_000.0, false);
        return new LoadPlan(connections, inFlight, durationNs, warmupNs, rate, arrival, seed, lateNs, timeoutNs);
    }

    private static int positiveInt(JsonNode command, String field, int fallback) {
        JsonNode value = command.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1) {
            throw new IllegalArgumentException("load: \"" + field + "\" must be a positive integer");
        }
        return value.intValue();
    }

    /** A number of milliseconds, in nanoseconds: positive (or with {@code zero}, non-negative), at most a day. */
    private static long millis(JsonNode command, String field, Double fallback, boolean zero) {
        JsonNode value = command.get(field);
        double ms;
        if (value == null || value.isNull()) {
            if (fallback == null) {
                throw new IllegalArgumentException("load: \"" + field + "\" is required");
            }
            ms = fallback;
        } else {
            ms = value.isNumber() ? value.doubleValue() : Double.NaN;
            if (!(zero ? ms >= 0 : ms > 0) || ms > MAX_MS) {
                throw new IllegalArgumentException("load: \"" + field + "\" must be a "
                        + (zero ? "non-negative" : "positive") + " number of milliseconds, at most " + (long) MAX_MS);
            }
        }
        return Math.round(ms * 1e6);
    }
}
