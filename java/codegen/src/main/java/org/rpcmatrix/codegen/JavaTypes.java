package org.rpcmatrix.codegen;

import java.util.Map;

/**
 * The contract's types as core's Java types (idl/CONTRACT.md, Java's column): what {@code Bench} declares and
 * what every family's mapping converts from and to. Class names are fully qualified; {@link SourceFile}
 * imports them.
 */
final class JavaTypes {
    static final String STRUCTS = "org.rpcmatrix.core.contract.";

    private static final Map<String, String> SCALARS = Map.ofEntries(
            Map.entry("void", "void"), Map.entry("bool", "boolean"), Map.entry("int8", "byte"),
            Map.entry("int16", "short"), Map.entry("int32", "int"), Map.entry("int64", "long"),
            Map.entry("float32", "float"), Map.entry("float64", "double"), Map.entry("string", "String"),
            Map.entry("bytes", "byte[]"), Map.entry("float64[]", "double[]"), Map.entry("timestamp", "long"),
            Map.entry("string[]", "java.util.List<String>"));

    private static final Map<String, String> BOXED = Map.of("boolean", "Boolean", "byte", "Byte", "short", "Short",
            "int", "Integer", "long", "Long", "float", "Float", "double", "Double");

    private JavaTypes() {
    }

    /**
     * core's Java type of a contract type: int8 → byte, Book[] → List of Book, "stream float64[]" → List of
     * double[].
     */
    static String of(String type) {
        if (type.startsWith("stream ")) {
            return "java.util.List<" + boxed(of(type.substring("stream ".length()))) + ">";
        }
        String scalar = SCALARS.get(type);
        if (scalar != null) {
            return scalar;
        }
        if (type.endsWith("[]")) {
            return "java.util.List<" + boxed(of(type.substring(0, type.length() - 2))) + ">";
        }
        if (!type.isEmpty() && Character.isUpperCase(type.charAt(0))) {
            return STRUCTS + type;
        }
        throw new IllegalArgumentException("no Java type for the contract type " + type);
    }

    /** The reference type a value of {@code javaType} travels as in an Object: int → Integer. */
    static String boxed(String javaType) {
        return BOXED.getOrDefault(javaType, javaType);
    }

    /** Whether a cast to {@code javaType} is unchecked (a parameterized type). */
    static boolean generic(String javaType) {
        return javaType.contains("<");
    }

    /** Whether a value of {@code javaType} passed alone as a varargs argument needs a cast to Object. */
    static boolean array(String javaType) {
        return javaType.endsWith("[]");
    }
}
