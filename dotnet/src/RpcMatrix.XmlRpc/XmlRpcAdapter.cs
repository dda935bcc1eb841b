using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;
using RpcMatrix.XmlRpc.Bench;

namespace RpcMatrix.XmlRpc
{
    /// <summary>The xmlrpc family for the launcher: its server and client adapter; xmlrpc-gzip compresses.</summary>
    public sealed class XmlRpcAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            return new XmlRpcBenchServer(InjectedSpin.Served(), options.Protocol.Gzip());
        }

        public IBenchClient CreateClient(Options options)
        {
            return new XmlRpcBenchClient(options.HostText, options.Port, options.Protocol.Gzip());
        }
    }
}
