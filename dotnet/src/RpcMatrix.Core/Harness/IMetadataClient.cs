namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// A client adapter of a protocol whose servers publish a description of themselves (the registry's
    /// "metadata", e.g. a SOAP server's ?wsdl): can this stack build a client from what the server under test
    /// publishes? The calls themselves always use the contract's own files.
    /// </summary>
    public interface IMetadataClient
    {
        /// <summary>True when the stack built a client with every operation of the contract from it.</summary>
        bool PublishedMetadata(out string reason);
    }
}
