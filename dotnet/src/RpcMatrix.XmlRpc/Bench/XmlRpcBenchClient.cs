using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc.Bench
{
    /// <summary>Client adapter: each contract operation as an XML-RPC call through XmlRpcMapping; a fault comes back as BenchError.</summary>
    public sealed class XmlRpcBenchClient : OperationClient
    {
        private static readonly MappedOperation[] Table = MappedOperation.Bind(XmlRpcMapping.ToWire, XmlRpcMapping.FromWire);

        private readonly XmlRpcHttpClient http;

        /// <param name="gzip">xmlrpc-gzip: requests compressed, answers asked for in gzip.</param>
        public XmlRpcBenchClient(string host, int port, bool gzip)
        {
            http = new XmlRpcHttpClient(host, port, gzip);
        }

        public override void Dispose()
        {
            http.Dispose();
        }

        protected override object Call(OperationInfo op, object[] args)
        {
            MappedOperation mapped = Table[op.Id];
            object answer;
            try
            {
                answer = http.Invoke(op.Name, mapped.ArgumentsToWire(args));
            }
            catch (XmlRpcFault fault)
            {
                throw new BenchError(fault.Code, fault.Message);
            }
            return mapped.ResultFromWire(answer);
        }
    }
}
