package org.rpcmatrix.jsonrpc;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The Jackson mapper both sides use: Jackson's defaults (long read exactly, byte[] as standard padded base64,
 * records by their component names, which are the contract's field names), and a missing primitive refused
 * rather than read as 0.
 */
final class Mappers {
    private Mappers() {
    }

    static ObjectMapper create() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .build();
    }
}
