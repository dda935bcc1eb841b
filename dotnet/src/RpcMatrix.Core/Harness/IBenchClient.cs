using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Harness
{
    /// <summary>A protocol's client adapter: the Bench service over one persistent connection.</summary>
    public interface IBenchClient : IBench, IDisposable
    {
    }
}
