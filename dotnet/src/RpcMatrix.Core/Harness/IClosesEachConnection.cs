namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// A client whose making is what its users do once (a WCF ChannelFactory built from the contract's description),
    /// which takes --connection per-call (runner/PROTOCOL.md: connect) by closing its connection after each answer
    /// instead: the client kept, each call on a new connection. The others are made anew for each call.
    /// </summary>
    public interface IClosesEachConnection
    {
        /// <summary>From now on, each call's connection is closed after its answer, so that the next call connects anew.</summary>
        void CloseEachConnection();
    }
}
