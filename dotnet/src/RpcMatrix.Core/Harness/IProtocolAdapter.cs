namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// What a protocol family adds to the shared code: its server and its client adapter. The variant (TLS,
    /// encoding) comes from the registry entry in Options.Protocol, never from flags of its own.
    /// </summary>
    public interface IProtocolAdapter
    {
        IBenchServer CreateServer(Options options);

        /// <summary>Creates the client adapter; it connects when called, never before the "connect" command.</summary>
        IBenchClient CreateClient(Options options);
    }
}
