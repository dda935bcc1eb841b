using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Hosting
{
    /// <summary>A protocol's client adapter: the Bench service over one persistent connection.</summary>
    public interface IBenchClient : IBench, IDisposable
    {
    }
}
