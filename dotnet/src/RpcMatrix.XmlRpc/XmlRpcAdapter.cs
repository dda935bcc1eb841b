using RpcMatrix.Core.Hosting;
using RpcMatrix.Core.Reference;
using RpcMatrix.XmlRpc.Bench;

namespace RpcMatrix.XmlRpc
{
    /// <summary>The xmlrpc family for the launcher: its server and client adapter. The family has no variants.</summary>
    public sealed class XmlRpcAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            return new XmlRpcBenchServer(new ReferenceBench());
        }

        public IBenchClient CreateClient(Options options)
        {
            return new XmlRpcBenchClient(options.HostText, options.Port);
        }
    }
}
