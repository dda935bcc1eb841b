using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Http;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc
{
    /// <summary>
    /// Each contract operation as an XML-RPC method call to /RPC2 through XmlRpcMapping, over one kept-alive HTTP
    /// connection (HttpRpcClient); a fault comes back as BenchError.
    /// </summary>
    public sealed class XmlRpcClient : HttpRpcClient
    {
        /// <param name="gzip">xmlrpc-gzip: requests compressed, answers asked for in gzip.</param>
        public XmlRpcClient(string host, int port, bool gzip)
            : base(XmlRpcMapping.Table, host, port, XmlRpcServer.Path, XmlRpcServer.ContentType, null, gzip)
        {
        }

        protected override object Invoke(string method, object[] parameters)
        {
            try
            {
                return XmlRpcParser.ParseResponse(Post(XmlRpcWriter.MethodCall(method, parameters)));
            }
            catch (XmlRpcFault fault)
            {
                throw new BenchError(fault.Code, fault.Message);
            }
        }
    }
}
