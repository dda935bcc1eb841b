using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.XmlRpc
{
    /// <summary>The xmlrpc family for the launcher: its server and client adapter; xmlrpc-gzip compresses.</summary>
    public sealed class XmlRpcAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            return new XmlRpcServer(InjectedSpin.Served(), options.Protocol.Gzip());
        }

        public IBenchClient CreateClient(Options options)
        {
            return new XmlRpcClient(options.HostText, options.Port, options.Protocol.Gzip());
        }
    }
}
