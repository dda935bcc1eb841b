package org.rpcmatrix.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generators on the repository's idl/: names, types, which operations a family carries, and the writing. */
class CodegenTest {
    static final Path IDL = Path.of("..", "..", "idl");

    @Test
    void constantsAreTheContractNamesInUpperSnakeCase() throws Exception {
        List<String> constants = Contract.load(IDL).operations().stream().map(Contract.Op::constant).toList();
        assertTrue(constants.containsAll(List.of("PING", "ECHO_INT8", "ECHO_FLOAT32", "IS_PRIME", "GET_RECORD",
                "RANDOM_DOUBLES_STREAM")), constants.toString());
    }

    @Test
    void coresJavaTypes() {
        assertEquals("byte", JavaTypes.of("int8"));
        assertEquals("double[]", JavaTypes.of("float64[]"));
        assertEquals("org.rpcmatrix.core.contract.Record", JavaTypes.of("Record"));
        assertEquals("java.util.List<org.rpcmatrix.core.contract.Book>", JavaTypes.of("Book[]"));
        assertEquals("java.util.List<double[]>", JavaTypes.of("stream float64[]"));
        assertEquals("Integer", JavaTypes.boxed("int"));
    }

    @Test
    void aFamilyCarriesTheOperationsWhoseNeedsNoneOfItsProtocolsLacks() throws Exception {
        Contract contract = Contract.load(IDL);
        assertFalse(names(contract.carriedBy(List.of("jsonrpc"))).contains("randomDoublesStream"));
        assertTrue(names(contract.carriedBy(List.of("grpc"))).contains("randomDoublesStream"));
        assertEquals(contract.operations().size() - 1, contract.carriedBy(List.of("hessian", "burlap")).size());
    }

    @Test
    void anInterfaceTakesTheCarriagesTypesThenCores() throws Exception {
        String text = ApiSource.merged(List.of(
                Contract.JSON.readTree("{\"types\": {\"int8\": \"int\", \"Record\": \"Object\"}}"),
                Contract.JSON.readTree("{\"interface\": \"org.example.Api\", \"families\": [\"hessian\"],"
                        + " \"params\": {\"float32\": \"Object\"}, \"throws\": [\"java.io.IOException\"],"
                        + " \"raises\": [\"org.example.Fault\"]}")))
                .source(Contract.load(IDL), "test").text();
        assertTrue(text.contains("    int echoInt8(int value) throws IOException;"), text);
        assertTrue(text.contains("    float echoFloat32(Object value) throws IOException;"), text);
        assertTrue(text.contains("    Object getRecord(String key) throws IOException;"), text);
        assertTrue(text.contains("    List<Book> searchBooks(String query, int count) throws IOException, Fault;"),
                text);
        assertTrue(text.contains("import org.rpcmatrix.core.contract.Book;"), text);
        assertFalse(text.contains("randomDoublesStream"), text);
    }

    @Test
    void anUnchangedFileIsNotWrittenAgainAndAStaleOneGoes(@TempDir Path out) throws Exception {
        Contract contract = Contract.load(IDL);
        SourceFile.writeAll(out, CoreSources.all(contract));
        Path bench = out.resolve("org/rpcmatrix/core/contract/Bench.java");
        Path stale = out.resolve("org/rpcmatrix/core/contract/Gone.java");
        Files.writeString(stale, "class Gone {}");
        Files.setLastModifiedTime(bench, java.nio.file.attribute.FileTime.fromMillis(0));
        SourceFile.writeAll(out, CoreSources.all(contract));
        assertEquals(0, Files.getLastModifiedTime(bench).toMillis());
        assertFalse(Files.exists(stale));
    }

    private static List<String> names(List<Contract.Op> ops) {
        return ops.stream().map(Contract.Op::name).toList();
    }
}
