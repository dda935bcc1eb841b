using RpcMatrix.Core.Contract;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc.Bench
{
    /// <summary>
    /// Server side: XML-RPC method calls, by contract name, onto a Bench through the operation table and
    /// XmlRpcMapping; BenchError becomes a fault, a value that does not fit an invalid-params fault.
    /// </summary>
    public sealed class XmlRpcBenchService
    {
        private static readonly MappedOperation[] Table = MappedOperation.Bind(XmlRpcMapping.ToWire, XmlRpcMapping.FromWire);

        private readonly IBench bench;

        public XmlRpcBenchService(IBench bench)
        {
            this.bench = bench;
        }

        public object Invoke(string method, object[] p)
        {
            try
            {
                return Call(method, p);
            }
            catch (BenchError e)
            {
                throw new XmlRpcFault(e.Code, e.Message);
            }
            catch (XmlRpcFormatException e)
            {
                throw new XmlRpcFault(XmlRpcFault.InvalidParams, method + ": " + e.Message);
            }
        }

        private object Call(string method, object[] p)
        {
            OperationInfo op = Operations.ByName(method);
            MappedOperation mapped = op == null ? null : Table[op.Id];
            if (mapped == null)
            {
                throw new XmlRpcFault(XmlRpcFault.MethodNotFound, "no method " + method);
            }
            if (p.Length != op.ParamTypes.Length)
            {
                throw new XmlRpcFormatException("takes " + op.ParamTypes.Length + " parameters, got " + p.Length);
            }
            return mapped.Serve(bench, p);
        }
    }
}
