package org.rpcmatrix.codegen;

/** A javadoc comment of generated code, its text wrapped to the project's line length. */
final class Javadoc {
    static final int WIDTH = 116;

    private Javadoc() {
    }

    /** {@code text} as a javadoc block at {@code indent}, words wrapped before {@link #WIDTH} columns. */
    static String block(String text, String indent) {
        StringBuilder out = new StringBuilder(indent).append("/**\n");
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (line.length() > 0 && indent.length() + 3 + line.length() + 1 + word.length() > WIDTH) {
                out.append(indent).append(" * ").append(line).append('\n');
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            out.append(indent).append(" * ").append(line).append('\n');
        }
        return out.append(indent).append(" */").toString();
    }
}
