using System.Collections.Generic;
using RpcMatrix.Core.Contract;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.JsonRpc.Bench
{
    /// <summary>
    /// Server side: JSON-RPC methods, by contract name, onto a Bench through the operation table and JsonRpcMapping;
    /// BenchError becomes an error object.
    /// </summary>
    public sealed class JsonRpcBenchService
    {
        private static readonly MappedOperation[] Table = MappedOperation.Bind(JsonRpcMapping.ToWire, JsonRpcMapping.FromWire);

        private readonly IBench bench;

        public JsonRpcBenchService(IBench bench)
        {
            this.bench = bench;
        }

        public object Invoke(string method, IList<object> p)
        {
            try
            {
                return Call(method, p);
            }
            catch (BenchError e)
            {
                throw new JsonRpcError(e.Code, e.Message);
            }
        }

        private object Call(string method, IList<object> p)
        {
            OperationInfo op = Operations.ByName(method);
            MappedOperation mapped = op == null ? null : Table[op.Id];
            if (mapped == null)
            {
                throw new JsonRpcError(JsonRpcError.MethodNotFound, "Method not found: " + method);
            }
            if (p.Count != op.ParamTypes.Length)
            {
                throw new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: takes " + op.ParamTypes.Length + " params, got " + p.Count);
            }
            return mapped.Serve(bench, p);
        }
    }
}
