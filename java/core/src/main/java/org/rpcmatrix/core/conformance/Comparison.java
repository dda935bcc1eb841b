package org.rpcmatrix.core.conformance;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.rpcmatrix.core.contract.Operation;

/**
 * The contract's comparison rules (CONTRACT.md#vectors): integers, strings and bytes exactly; floats by their
 * bits, any NaN equal to any NaN; structs field by field; optionally floats within 1 ulp (logTransform).
 */
public final class Comparison {
    private static final int SHOWN_CHARS = 60;

    private final boolean withinOneUlp;

    private Comparison(boolean withinOneUlp) {
        this.withinOneUlp = withinOneUlp;
    }

    /** Exact comparison. */
    public static final Comparison EXACT = new Comparison(false);
    /** Floats may differ by one unit in the last place: platforms' log functions are not all correctly rounded. */
    public static final Comparison WITHIN_ONE_ULP = new Comparison(true);

    /** The rule for an operation's answers. */
    public static Comparison forOperation(Operation op) {
        return op == Operation.LOG_TRANSFORM ? WITHIN_ONE_ULP : EXACT;
    }

    /** The first difference as "path: expected X, actual Y", or empty when the values match. */
    public Optional<String> firstDifference(String path, Object expected, Object actual) {
        if (expected == null || actual == null) {
            return expected == actual ? Optional.empty() : differ(path, expected, actual);
        }
        if (expected instanceof Double && actual instanceof Double) {
            return sameDouble((Double) expected, (Double) actual) ? Optional.empty() : differ(path, expected, actual);
        }
        if (expected instanceof Float && actual instanceof Float) {
            return sameFloat((Float) expected, (Float) actual) ? Optional.empty() : differ(path, expected, actual);
        }
        if (expected instanceof double[] && actual instanceof double[]) {
            return doubles(path, (double[]) expected, (double[]) actual);
        }
        if (expected instanceof byte[] && actual instanceof byte[]) {
            return bytes(path, (byte[]) expected, (byte[]) actual);
        }
        if (expected instanceof List && actual instanceof List) {
            return list(path, (List<?>) expected, (List<?>) actual);
        }
        if (expected.getClass().isRecord() && expected.getClass() == actual.getClass()) {
            return struct(path, expected, actual);
        }
        if (expected.getClass() != actual.getClass()) {
            return Optional.of(path + ": expected a " + expected.getClass().getSimpleName() + " " + show(expected)
                    + ", actual a " + actual.getClass().getSimpleName() + " " + show(actual));
        }
        return expected.equals(actual) ? Optional.empty() : differ(path, expected, actual);
    }

    private boolean sameDouble(double e, double a) {
        if (Double.isNaN(e) || Double.isNaN(a)) {
            return Double.isNaN(e) && Double.isNaN(a);
        }
        long eb = Double.doubleToRawLongBits(e);
        long ab = Double.doubleToRawLongBits(a);
        return eb == ab || withinOneUlp && atMostOneApart(ordered(eb), ordered(ab));
    }

    private boolean sameFloat(float e, float a) {
        if (Float.isNaN(e) || Float.isNaN(a)) {
            return Float.isNaN(e) && Float.isNaN(a);
        }
        int eb = Float.floatToRawIntBits(e);
        int ab = Float.floatToRawIntBits(a);
        return eb == ab || withinOneUlp && atMostOneApart(ordered(eb), ordered(ab));
    }

    /** Maps float bits to integers that count ulps in order, so adjacent floats differ by 1 (-0.0 and +0.0 too). */
    private static long ordered(long bits) {
        return bits < 0 ? Long.MIN_VALUE - bits : bits;
    }

    /** Written so that no subtraction can overflow into a small difference. */
    private static boolean atMostOneApart(long x, long y) {
        return x == y || (x > y ? x - y == 1 : y - x == 1);
    }

    private static int ordered(int bits) {
        return bits < 0 ? Integer.MIN_VALUE - bits : bits;
    }

    private Optional<String> doubles(String path, double[] expected, double[] actual) {
        if (expected.length != actual.length) {
            return differ(path + ".length", expected.length, actual.length);
        }
        for (int i = 0; i < expected.length; i++) {
            if (!sameDouble(expected[i], actual[i])) {
                return differ(path + "[" + i + "]", expected[i], actual[i]);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> bytes(String path, byte[] expected, byte[] actual) {
        if (expected.length != actual.length) {
            return differ(path + ".length", expected.length, actual.length);
        }
        int i = Arrays.mismatch(expected, actual);
        return i < 0 ? Optional.empty() : differ(path + "[" + i + "]", expected[i] & 0xFF, actual[i] & 0xFF);
    }

    private Optional<String> list(String path, List<?> expected, List<?> actual) {
        if (expected.size() != actual.size()) {
            return differ(path + ".length", expected.size(), actual.size());
        }
        for (int i = 0; i < expected.size(); i++) {
            Optional<String> difference = firstDifference(path + "[" + i + "]", expected.get(i), actual.get(i));
            if (difference.isPresent()) {
                return difference;
            }
        }
        return Optional.empty();
    }

    private Optional<String> struct(String path, Object expected, Object actual) {
        for (RecordComponent field : expected.getClass().getRecordComponents()) {
            try {
                Object e = field.getAccessor().invoke(expected);
                Object a = field.getAccessor().invoke(actual);
                Optional<String> difference = firstDifference(path + "." + field.getName(), e, a);
                if (difference.isPresent()) {
                    return difference;
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> differ(String path, Object expected, Object actual) {
        return Optional.of(path + ": expected " + show(expected) + ", actual " + show(actual));
    }

    /** A short, unambiguous rendering: floats with their bits, long strings and arrays cut. */
    static String show(Object value) {
        if (value instanceof Double) {
            double d = (Double) value;
            return d + String.format(" (0x%016x)", Double.doubleToRawLongBits(d));
        }
        if (value instanceof Float) {
            float f = (Float) value;
            return f + String.format(" (0x%08x)", Float.floatToRawIntBits(f));
        }
        if (value instanceof String) {
            return cut(quote((String) value));
        }
        if (value instanceof byte[]) {
            byte[] bytes = (byte[]) value;
            return bytes.length + " bytes " + cut(Base64.getEncoder().encodeToString(bytes));
        }
        if (value instanceof double[]) {
            return ((double[]) value).length + " doubles";
        }
        if (value instanceof List) {
            return ((List<?>) value).size() + " elements";
        }
        return cut(String.valueOf(value));
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            if (c < 0x20 || c == '"' || c == '\\') {
                quoted.append(String.format("\\u%04x", c));
            } else {
                quoted.appendCodePoint(c);
            }
        });
        return quoted.append('"').toString();
    }

    private static String cut(String text) {
        return text.length() <= SHOWN_CHARS ? text : text.substring(0, SHOWN_CHARS) + "... (" + text.length() + " chars)";
    }
}
