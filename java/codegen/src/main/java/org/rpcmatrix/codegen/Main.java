package org.rpcmatrix.codegen;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates, at build time, the Java code that repeats the contract per operation (never committed: it goes to
 * the module's target/). Maven runs it in generate-sources (the parent pom's execution
 * {@code generate-contract-sources}):
 * <pre>
 * core IDL OUT                  core's Bench, Operation and OperationClient, from IDL/contract.json
 * api IDL OUT CARRIAGE.json...  the interface a family's library dispatches on (see {@link ApiSource})
 * </pre>
 * An unchanged output file is not rewritten, so an unchanged contract recompiles nothing.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || !(args[0].equals("core") || (args[0].equals("api") && args.length > 3))) {
            throw new IllegalArgumentException("usage: core IDL OUT | api IDL OUT CARRIAGE.json...");
        }
        Path idl = Path.of(args[1]).toAbsolutePath().normalize();
        Path out = Path.of(args[2]);
        Contract contract = Contract.load(idl);
        if (args[0].equals("core")) {
            SourceFile.writeAll(out, CoreSources.all(contract));
            return;
        }
        Path root = idl.getParent();
        List<JsonNode> carriages = new ArrayList<>();
        StringBuilder from = new StringBuilder("idl/contract.json, idl/protocols.json");
        for (int i = 3; i < args.length; i++) {
            Path file = Path.of(args[i]).toAbsolutePath().normalize();
            carriages.add(Contract.JSON.readTree(file.toFile()));
            from.append(", ").append(root.relativize(file));
        }
        SourceFile.writeAll(out, List.of(ApiSource.merged(carriages).source(contract, from.toString())));
    }
}
