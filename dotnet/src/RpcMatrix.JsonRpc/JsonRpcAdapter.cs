using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.JsonRpc
{
    /// <summary>The jsonrpc family (JSON-RPC 2.0 over HTTP) for the launcher: its server and client adapter.</summary>
    public sealed class JsonRpcAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            return new JsonRpcServer(InjectedSpin.Served(), options.Protocol.Gzip());
        }

        public IBenchClient CreateClient(Options options)
        {
            return new JsonRpcClient(options.HostText, options.Port, options.Protocol.Gzip());
        }
    }
}
