package org.rpcmatrix.codegen;

/** Comments of generated code, their text wrapped to the project's line length. */
final class Comments {
    static final int WIDTH = 116;

    private Comments() {
    }

    /** {@code text} as a javadoc block at {@code indent}, words wrapped before {@link #WIDTH} columns. */
    static String block(String text, String indent) {
        return indent + "/**\n" + wrap(text, indent + " * ") + "\n" + indent + " */";
    }

    /** {@code text}'s words in lines that each begin with {@code prefix} and end before {@link #WIDTH} columns. */
    static String wrap(String text, String prefix) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (line.length() > 0 && prefix.length() + line.length() + 1 + word.length() > WIDTH) {
                out.append(prefix).append(line).append('\n');
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        return out.append(prefix).append(line).toString();
    }
}
