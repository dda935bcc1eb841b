package org.rpcmatrix.core.adapter;

/**
 * A client adapter of a protocol whose servers publish a description of themselves (the registry's
 * {@code metadata}, e.g. a SOAP server's {@code ?wsdl}): can this stack build a client from what the server
 * under test publishes? The calls themselves always use the contract's own files.
 */
public interface MetadataClient {

    /** Whether the stack built a client with every operation of the contract, and what it found. */
    record Check(boolean consumable, String reason) { }

    Check publishedMetadata();
}
