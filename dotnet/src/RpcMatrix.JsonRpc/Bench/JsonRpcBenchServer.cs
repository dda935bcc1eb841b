using System.Net;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.JsonRpc.Bench
{
    /// <summary>The Bench served over JSON-RPC 2.0 at /jsonrpc.</summary>
    public sealed class JsonRpcBenchServer : IBenchServer
    {
        private readonly JsonRpcHttpServer http;

        /// <param name="gzip">jsonrpc-gzip: answers gzip-compressed for clients that accept it.</param>
        public JsonRpcBenchServer(IBench bench, bool gzip)
        {
            http = new JsonRpcHttpServer(new JsonRpcDispatcher(new JsonRpcBenchService(bench).Invoke), gzip);
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
