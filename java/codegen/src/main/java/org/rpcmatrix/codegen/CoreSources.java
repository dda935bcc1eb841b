package org.rpcmatrix.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.rpcmatrix.codegen.Contract.Op;
import org.rpcmatrix.codegen.Contract.Param;

/**
 * core's per-operation code, from contract.json: {@code Bench} (the contract as a Java interface),
 * {@code Operation} (the operation table: ids, names, types, and {@code invoke}, the one switch from an
 * operation and its arguments to a typed call) and {@code OperationClient} (a client's typed methods, each one
 * {@code call(op, args)}).
 */
final class CoreSources {
    static final String CONTRACT = "org.rpcmatrix.core.contract";
    static final String MAPPING = "org.rpcmatrix.core.mapping";
    private static final String FROM = "idl/contract.json";

    private CoreSources() {
    }

    static List<SourceFile> all(Contract contract) {
        return List.of(bench(contract), operation(contract), operationClient(contract));
    }

    static SourceFile bench(Contract contract) {
        SourceFile f = new SourceFile(CONTRACT, "Bench", FROM);
        f.line(Comments.block("The contract's operations (idl/contract.json), one method each. Every protocol serves"
                + " and calls this.", ""));
        f.line("public interface Bench {");
        List<String> methods = new ArrayList<>();
        for (Op op : contract.operations()) {
            String signature = f.type(JavaTypes.of(op.returns())) + " " + op.name() + "(" + params(f, op)
                    + ") throws Exception";
            if (op.needs().isEmpty()) {
                methods.add("    " + signature + ";");
                continue;
            }
            String about = op.about() == null ? "." : ": " + op.about().replace("&", "&amp;").replace("<", "&lt;")
                    .replace(">", "&gt;");
            methods.add(Comments.block("Needs " + String.join(", ", op.needs())
                    + " (contract.json), which only some protocols have" + about, "    ") + "\n"
                    + "    default " + signature + " {\n"
                    + "        throw new UnsupportedOperationException(\"" + op.name()
                    + " is not part of this protocol\");\n"
                    + "    }");
        }
        f.line(String.join("\n\n", methods));
        f.line("}");
        return f;
    }

    static SourceFile operation(Contract contract) {
        SourceFile f = new SourceFile(CONTRACT, "Operation", FROM);
        String list = f.type("java.util.List");
        f.type("java.util.Locale");
        StringJoiner rows = new StringJoiner(",\n", "", ";");
        StringBuilder cases = new StringBuilder();
        boolean unchecked = false;
        for (Op op : contract.operations()) {
            StringJoiner types = new StringJoiner(", ", list + ".of(", ")");
            op.params().forEach(p -> types.add("\"" + p.type() + "\""));
            rows.add("    " + op.constant() + "(" + op.id() + ", \"" + op.name() + "\", " + types + ", \""
                    + op.returns() + "\")");
            StringJoiner args = new StringJoiner(", ");
            for (int i = 0; i < op.params().size(); i++) {
                String type = JavaTypes.of(op.params().get(i).type());
                unchecked |= JavaTypes.generic(type);
                args.add("(" + f.type(JavaTypes.boxed(type)) + ") args[" + i + "]");
            }
            String call = "bench." + op.name() + "(" + args + ")";
            cases.append("            case ").append(op.constant()).append(":\n");
            if (op.returnsVoid()) {
                cases.append("                ").append(call).append(";\n                return null;\n");
            } else {
                cases.append("                return ").append(call).append(";\n");
            }
        }
        f.line("""
                /**
                 * The contract's operations with their ids and types as written in idl/contract.json. Protocols use it to
                 * dispatch by id or name and to convert by type.
                 */
                public enum Operation {""");
        f.line(rows.toString());
        f.line("""

                    private static final Operation[] BY_ID = values();

                    private final int id;
                    private final String contractName;
                    private final List<String> paramTypes;
                    private final String returnType;

                    Operation(int id, String contractName, List<String> paramTypes, String returnType) {
                        this.id = id;
                        this.contractName = contractName;
                        this.paramTypes = paramTypes;
                        this.returnType = returnType;
                    }

                    public int id() {
                        return id;
                    }

                    public String contractName() {
                        return contractName;
                    }

                    public List<String> paramTypes() {
                        return paramTypes;
                    }

                    public String returnType() {
                        return returnType;
                    }

                    /** The operation with this contract id, or null. */
                    public static Operation byId(int id) {
                        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
                    }

                    /** The operation with this contract name ("echoInt8"), or null. */
                    public static Operation byName(String name) {
                        for (Operation op : BY_ID) {
                            if (op.contractName.equals(name)) {
                                return op;
                            }
                        }
                        return null;
                    }

                    /**
                     * Calls this operation on {@code bench} with arguments already of their Java types (see
                     * conformance.Values). Returns null for void; the list of chunks for a stream.
                     */
                """.stripTrailing());
        if (unchecked) {
            f.line("    @SuppressWarnings(\"unchecked\")");
        }
        f.line("""
                    public Object invoke(Bench bench, Object[] args) throws Exception {
                        if (args.length != paramTypes.size()) {
                            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s takes %d arguments, got %d",
                                    contractName, paramTypes.size(), args.length));
                        }
                        switch (this) {
                """.stripTrailing());
        f.line(cases + "            default:\n                throw new AssertionError(this);\n        }\n    }\n}");
        return f;
    }

    static SourceFile operationClient(Contract contract) {
        SourceFile f = new SourceFile(MAPPING, "OperationClient", FROM);
        f.type("org.rpcmatrix.core.adapter.BenchClient");
        String operation = f.type(CONTRACT + ".Operation");
        f.line("""
                /**
                 * A client whose protocol calls every operation the same way, by its {@link Operation} and arguments: the
                 * typed contract methods are generated here, each protocol writes only {@link #call}. An operation that
                 * needs a capability some protocols lack (server streaming) is left to the client that has it.
                 */
                public abstract class OperationClient implements BenchClient {
                    /** Sends one call and returns its result in the contract's Java types (null for void); raises BenchError. */
                    protected abstract Object call(Operation op, Object... args) throws Exception;
                """.stripTrailing());
        for (Op op : contract.operations()) {
            if (!op.needs().isEmpty()) {
                continue;
            }
            String result = JavaTypes.of(op.returns());
            StringJoiner args = new StringJoiner(", ");
            args.add(operation + "." + op.constant());
            for (Param p : op.params()) {
                boolean alone = op.params().size() == 1 && JavaTypes.array(JavaTypes.of(p.type()));
                args.add((alone ? "(Object) " : "") + p.name());
            }
            String call = "call(" + args + ")";
            f.line("");
            f.line("    @Override");
            if (JavaTypes.generic(result)) {
                f.line("    @SuppressWarnings(\"unchecked\")");
            }
            f.line("    public " + f.type(result) + " " + op.name() + "(" + params(f, op) + ") throws Exception {");
            f.line(op.returnsVoid() ? "        " + call + ";"
                    : "        return (" + f.type(JavaTypes.boxed(result)) + ") " + call + ";");
            f.line("    }");
        }
        f.line("}");
        return f;
    }

    private static String params(SourceFile f, Op op) {
        StringJoiner params = new StringJoiner(", ");
        op.params().forEach(p -> params.add(f.type(JavaTypes.of(p.type())) + " " + p.name()));
        return params.toString();
    }
}
