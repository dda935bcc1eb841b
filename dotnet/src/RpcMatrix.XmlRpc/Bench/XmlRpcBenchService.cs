using System;
using RpcMatrix.Core.Contract;
using RpcMatrix.XmlRpc.Protocol;
using C = RpcMatrix.XmlRpc.Bench.XmlRpcCarriage;

namespace RpcMatrix.XmlRpc.Bench
{
    /// <summary>Server side: XML-RPC method calls, by contract name, onto a Bench; BenchError becomes a fault.</summary>
    public sealed class XmlRpcBenchService
    {
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
            switch (method)
            {
                case "ping": Arity(p, 0); bench.Ping(); return true;
                case "echoBool": Arity(p, 1); return bench.EchoBool(C.ToBool(p[0]));
                case "echoInt8": Arity(p, 1); return (int)bench.EchoInt8(C.ToInt8(p[0]));
                case "echoInt16": Arity(p, 1); return (int)bench.EchoInt16(C.ToInt16(p[0]));
                case "echoInt32": Arity(p, 1); return bench.EchoInt32(C.ToInt32(p[0]));
                case "echoInt64": Arity(p, 1); return C.Int64(bench.EchoInt64(C.ToInt64(p[0])));
                case "echoFloat32": Arity(p, 1); return C.Float32(bench.EchoFloat32(C.ToFloat32(p[0])));
                case "echoFloat64": Arity(p, 1); return bench.EchoFloat64(C.ToFloat64(p[0]));
                case "echoString": Arity(p, 1); return bench.EchoString(C.ToString(p[0]));
                case "echoBytes": Arity(p, 1); return bench.EchoBytes(C.ToBytes(p[0]));
                case "isPrime": Arity(p, 1); return bench.IsPrime(C.ToInt32(p[0]));
                case "average": Arity(p, 1); return bench.Average(C.ToFloat64Array(p[0]));
                case "randomDoubles": Arity(p, 2); return C.Float64Array(bench.RandomDoubles(C.ToInt32(p[0]), C.ToInt64(p[1])));
                case "logTransform": Arity(p, 1); return C.Float64Array(bench.LogTransform(C.ToFloat64Array(p[0])));
                case "getRecord": Arity(p, 1); return C.Record(bench.GetRecord(C.ToString(p[0])));
                case "searchBooks": Arity(p, 2); return C.Books(bench.SearchBooks(C.ToString(p[0]), C.ToInt32(p[1])));
                case "getItems": Arity(p, 1); return C.Items(bench.GetItems(C.ToInt32(p[0])));
                case "fail": Arity(p, 2); bench.Fail(C.ToInt32(p[0]), C.ToString(p[1])); return true;
                default: throw new XmlRpcFault(XmlRpcFault.MethodNotFound, "no method " + method);
            }
        }

        private static void Arity(object[] p, int n)
        {
            if (p.Length != n)
            {
                throw new XmlRpcFormatException("takes " + n + " parameters, got " + p.Length);
            }
        }
    }
}
