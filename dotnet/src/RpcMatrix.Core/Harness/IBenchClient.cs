using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Harness
{
    /// <summary>A protocol's client adapter: the Bench service over one persistent connection.</summary>
    public interface IBenchClient : IBench, IDisposable
    {
        /// <summary>
        /// True when this one client (its connection) carries concurrent calls, so that the load command may put more
        /// calls in flight than it opens connections (runner/PROTOCOL.md#load); false when it makes one call at a time
        /// (the load command then refuses in_flight &gt; connections). Each stack says why in its client.
        /// </summary>
        bool SharesConnection { get; }
    }
}
