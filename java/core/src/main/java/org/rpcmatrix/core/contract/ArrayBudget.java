package org.rpcmatrix.core.contract;

import java.io.ObjectInputFilter;

/**
 * Java serialization allocates an array of its declared length before reading one element, so a few bytes that
 * declare {@code long[16 Mi]} cost 128 MiB (idl/CONTRACT.md, "Limits"). Deserialization filters bound the array
 * by its size in bytes, not by its element count: the contract's largest value is the 1 MiB echoBytes vector,
 * and four times that is the budget of any one array.
 */
public final class ArrayBudget {
    public static final long MAX_ARRAY_BYTES = 4L * 1024 * 1024;

    private ArrayBudget() {
    }

    /** True when the filter is asked about an array whose declared length would take more than the budget. */
    public static boolean overBudget(ObjectInputFilter.FilterInfo info) {
        Class<?> type = info.serialClass();
        if (type == null || !type.isArray() || info.arrayLength() < 0) {
            return false;
        }
        return info.arrayLength() * elementBytes(type.getComponentType()) > MAX_ARRAY_BYTES;
    }

    static long elementBytes(Class<?> component) {
        if (component == boolean.class || component == byte.class) {
            return 1;
        }
        if (component == char.class || component == short.class) {
            return 2;
        }
        if (component == int.class || component == float.class) {
            return 4;
        }
        return 8; // long, double, and a reference (uncompressed, the larger case)
    }
}
