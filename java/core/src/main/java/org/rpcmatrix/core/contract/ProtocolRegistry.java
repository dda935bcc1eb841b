package org.rpcmatrix.core.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** idl/protocols.json: the registered protocols by name. Servers and clients refuse any other. */
public final class ProtocolRegistry {
    public static final String FILE = "protocols.json";

    private final Map<String, Protocol> protocols;

    private ProtocolRegistry(Map<String, Protocol> protocols) {
        this.protocols = protocols;
    }

    public static ProtocolRegistry load(Path idl) throws IOException {
        return parse(Json.MAPPER.readTree(idl.resolve(FILE).toFile()));
    }

    static ProtocolRegistry parse(JsonNode file) {
        JsonNode entries = file.get("protocols");
        if (entries == null || !entries.isObject()) {
            throw new IllegalArgumentException(FILE + " has no \"protocols\" object");
        }
        Map<String, Protocol> protocols = new LinkedHashMap<>();
        entries.fields().forEachRemaining(entry -> {
            JsonNode p = entry.getValue();
            String family = p.path("family").asText("");
            if (family.isEmpty()) {
                throw new IllegalArgumentException(FILE + ": protocol " + entry.getKey() + " has no family");
            }
            protocols.put(entry.getKey(), new Protocol(entry.getKey(), family, textMap(p.get("variant")),
                    texts(p.get("has")), textMap(p.get("lacks"))));
        });
        return new ProtocolRegistry(Collections.unmodifiableMap(protocols));
    }

    /** The protocol with this name, or null. */
    public Protocol find(String name) {
        return protocols.get(name);
    }

    /**
     * The protocol with this name; an unregistered one is an {@link UnregisteredProtocolException} with the
     * message every language prints.
     */
    public Protocol require(String name) {
        Protocol protocol = protocols.get(name);
        if (protocol == null) {
            throw new UnregisteredProtocolException(name);
        }
        return protocol;
    }

    /** A protocol that idl/protocols.json does not list. */
    public static final class UnregisteredProtocolException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UnregisteredProtocolException(String name) {
            super("protocol '" + name + "' is not in idl/" + FILE);
        }
    }

    private static Map<String, String> textMap(JsonNode object) {
        Map<String, String> map = new LinkedHashMap<>();
        if (object != null) {
            object.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        }
        return Collections.unmodifiableMap(map);
    }

    private static List<String> texts(JsonNode array) {
        List<String> list = new ArrayList<>();
        if (array != null) {
            array.forEach(s -> list.add(s.asText()));
        }
        return List.copyOf(list);
    }
}
