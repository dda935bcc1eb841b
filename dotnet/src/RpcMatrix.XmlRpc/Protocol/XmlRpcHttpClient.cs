using System;
using RpcMatrix.Core.Http;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>
    /// XML-RPC over one kept-alive HTTP connection (HttpPostClient: no Expect: 100-continue, Nagle off); with gzip
    /// (xmlrpc-gzip) every request is compressed and the answer asked for in gzip.
    /// </summary>
    public sealed class XmlRpcHttpClient : IDisposable
    {
        private readonly HttpPostClient http;

        public XmlRpcHttpClient(string host, int port, bool gzip)
        {
            http = new HttpPostClient(host, port, XmlRpcHttpServer.Path, "text/xml; charset=utf-8", null, gzip);
        }

        /// <summary>Calls a method; returns its value, or throws XmlRpcFault for a fault response.</summary>
        public object Invoke(string methodName, params object[] parameters)
        {
            return XmlRpcParser.ParseResponse(http.Post(XmlRpcWriter.MethodCall(methodName, parameters)));
        }

        public void Dispose()
        {
            http.Dispose();
        }
    }
}
