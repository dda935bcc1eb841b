using System.Net;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Hosting;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc.Bench
{
    /// <summary>The Bench served over XML-RPC at /RPC2.</summary>
    public sealed class XmlRpcBenchServer : IBenchServer
    {
        private readonly XmlRpcHttpServer http;

        public XmlRpcBenchServer(IBench bench)
        {
            http = new XmlRpcHttpServer(new XmlRpcBenchService(bench).Invoke);
        }

        public int Start(IPAddress host, int port)
        {
            return http.Start(host, port);
        }

        public void Stop()
        {
            http.Stop();
        }
    }
}
