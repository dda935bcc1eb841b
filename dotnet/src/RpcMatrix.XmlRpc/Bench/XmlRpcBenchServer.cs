using System.Net;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc.Bench
{
    /// <summary>The Bench served over XML-RPC at /RPC2.</summary>
    public sealed class XmlRpcBenchServer : IBenchServer
    {
        private readonly XmlRpcHttpServer http;

        /// <param name="gzip">xmlrpc-gzip: answers gzip-compressed for clients that accept it.</param>
        public XmlRpcBenchServer(IBench bench, bool gzip)
        {
            http = new XmlRpcHttpServer(new XmlRpcBenchService(bench).Invoke, gzip);
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
