package org.rpcmatrix.rawtcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rpcmatrix.core.conformance.Values;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.core.reference.Fnv1a64;
import org.rpcmatrix.core.reference.ReferenceBench;

/**
 * Every case of idl/golden.json: the reference behaviour's answers and the generated arguments, encoded with
 * this module's rawtcp codec, have the recorded length and FNV-1a 64 digest (average also its exact bits).
 */
class GoldenTest {
    private static final Path IDL = Path.of("..", "..", "idl");

    static Stream<Arguments> answers() throws Exception {
        return cases("answers", "op");
    }

    static Stream<Arguments> generated() throws Exception {
        return cases("generated", "form");
    }

    private static Stream<Arguments> cases(String section, String label) throws Exception {
        JsonNode golden = Json.MAPPER.readTree(IDL.resolve("golden.json").toFile());
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode c : golden.get(section)) {
            cases.add(Arguments.of(c.get(label) + " " + c.path("args"), c));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void referenceAnswersMatch(String name, JsonNode golden) throws Exception {
        Operation op = Operation.byName(golden.get("op").textValue());
        List<String> types = op.paramTypes();
        Object[] args = new Object[types.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = Values.decode(golden.get("args").get(i), types.get(i));
        }
        Object answer = op.invoke(new ReferenceBench(), args);
        String type = golden.get("type").textValue();
        assertEquals(op.returnType(), type);
        assertEncoding(golden, type, answer);
        if (golden.has("value_bits")) {
            assertEquals(golden.get("value_bits").textValue(),
                    String.format(Locale.ROOT, "%016x", Double.doubleToRawLongBits((Double) answer)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generated")
    void generatedArgumentsMatch(String name, JsonNode golden) {
        String type = golden.get("type").textValue();
        assertEncoding(golden, type, Values.decode(golden.get("form"), type));
    }

    private static void assertEncoding(JsonNode golden, String type, Object value) {
        RawTcpCodec.Writer writer = new RawTcpCodec.Writer();
        writer.value(type, value);
        byte[] encoded = writer.body();
        assertEquals(golden.get("bytes").intValue(), encoded.length, "encoded length");
        assertEquals(golden.get("fnv1a64").textValue(), String.format(Locale.ROOT, "%016x", Fnv1a64.hash(encoded)),
                "FNV-1a 64 of the rawtcp encoding");
    }
}
