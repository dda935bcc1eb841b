package org.rpcmatrix.core.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.testing.TestSessions;

/** {@link Operation} mirrors idl/contract.json, the source of truth. */
class OperationTest {
    @Test
    void matchesContractJson() throws Exception {
        JsonNode operations = Json.MAPPER.readTree(TestSessions.IDL.resolve("contract.json").toFile()).get("operations");
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
