package org.rpcmatrix.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Operation} mirrors idl/contract.json, the source of truth. */
class OperationTest {
    static final Path IDL = Path.of("..", "..", "idl");

    @Test
    void matchesContractJson() throws Exception {
        JsonNode operations = Json.MAPPER.readTree(IDL.resolve("contract.json").toFile()).get("operations");
        assertEquals(operations.size(), Operation.values().length);
        for (JsonNode declared : operations) {
            Operation op = Operation.byId(declared.get("id").intValue());
            assertEquals(declared.get("name").textValue(), op.contractName());
            List<String> types = new ArrayList<>();
            declared.get("params").forEach(p -> types.add(p.get("type").textValue()));
            assertEquals(types, op.paramTypes(), op.contractName());
            assertEquals(declared.get("returns").textValue(), op.returnType(), op.contractName());
            assertEquals(op, Operation.byName(op.contractName()));
        }
    }
}
