using System.Collections.Generic;
using RpcMatrix.Core.Contract;
using RpcMatrix.JsonRpc.Protocol;
using C = RpcMatrix.JsonRpc.Bench.JsonRpcCarriage;

namespace RpcMatrix.JsonRpc.Bench
{
    /// <summary>Server side: JSON-RPC methods, by contract name, onto a Bench; BenchError becomes an error object.</summary>
    public sealed class JsonRpcBenchService
    {
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
            switch (method)
            {
                case "ping": Arity(p, 0); bench.Ping(); return null;
                case "echoBool": Arity(p, 1); return bench.EchoBool(C.ToBool(p[0]));
                case "echoInt8": Arity(p, 1); return (int)bench.EchoInt8(C.ToInt8(p[0]));
                case "echoInt16": Arity(p, 1); return (int)bench.EchoInt16(C.ToInt16(p[0]));
                case "echoInt32": Arity(p, 1); return bench.EchoInt32(C.ToInt32(p[0]));
                case "echoInt64": Arity(p, 1); return bench.EchoInt64(C.ToInt64(p[0]));
                case "echoFloat32": Arity(p, 1); return C.Float32(bench.EchoFloat32(C.ToFloat32(p[0])));
                case "echoFloat64": Arity(p, 1); return bench.EchoFloat64(C.ToFloat64(p[0]));
                case "echoString": Arity(p, 1); return bench.EchoString(C.ToString(p[0]));
                case "echoBytes": Arity(p, 1); return C.Bytes(bench.EchoBytes(C.ToBytes(p[0])));
                case "isPrime": Arity(p, 1); return bench.IsPrime(C.ToInt32(p[0]));
                case "average": Arity(p, 1); return bench.Average(C.ToFloat64Array(p[0]));
                case "randomDoubles": Arity(p, 2); return bench.RandomDoubles(C.ToInt32(p[0]), C.ToInt64(p[1]));
                case "logTransform": Arity(p, 1); return bench.LogTransform(C.ToFloat64Array(p[0]));
                case "getRecord": Arity(p, 1); return C.Record(bench.GetRecord(C.ToString(p[0])));
                case "searchBooks": Arity(p, 2); return C.Books(bench.SearchBooks(C.ToString(p[0]), C.ToInt32(p[1])));
                case "getItems": Arity(p, 1); return C.Items(bench.GetItems(C.ToInt32(p[0])));
                case "fail": Arity(p, 2); bench.Fail(C.ToInt32(p[0]), C.ToString(p[1])); return null;
                default: throw new JsonRpcError(JsonRpcError.MethodNotFound, "Method not found: " + method);
            }
        }

        private static void Arity(IList<object> p, int n)
        {
            if (p.Count != n)
            {
                throw new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: takes " + n + " params, got " + p.Count);
            }
        }
    }
}
