using System;
using System.Collections.Generic;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Hosting;
using RpcMatrix.JsonRpc.Protocol;
using C = RpcMatrix.JsonRpc.Bench.JsonRpcCarriage;

namespace RpcMatrix.JsonRpc.Bench
{
    /// <summary>Client adapter: each contract operation as a JSON-RPC call; an error object comes back as BenchError.</summary>
    public sealed class JsonRpcBenchClient : IBenchClient
    {
        private readonly JsonRpcHttpClient http;

        /// <param name="gzip">jsonrpc-gzip: requests compressed, answers asked for in gzip.</param>
        public JsonRpcBenchClient(string host, int port, bool gzip)
        {
            http = new JsonRpcHttpClient(host, port, gzip);
        }

        public void Ping() { C.ToVoid(Call("ping")); }
        public bool EchoBool(bool value) { return C.ToBool(Call("echoBool", value)); }
        public sbyte EchoInt8(sbyte value) { return C.ToInt8(Call("echoInt8", (int)value)); }
        public short EchoInt16(short value) { return C.ToInt16(Call("echoInt16", (int)value)); }
        public int EchoInt32(int value) { return C.ToInt32(Call("echoInt32", value)); }
        public long EchoInt64(long value) { return C.ToInt64(Call("echoInt64", value)); }
        public float EchoFloat32(float value) { return C.ToFloat32(Call("echoFloat32", C.Float32(value))); }
        public double EchoFloat64(double value) { return C.ToFloat64(Call("echoFloat64", value)); }
        public string EchoString(string value) { return C.ToString(Call("echoString", value)); }
        public byte[] EchoBytes(byte[] value) { return C.ToBytes(Call("echoBytes", C.Bytes(value))); }
        public bool IsPrime(int n) { return C.ToBool(Call("isPrime", n)); }
        public double Average(double[] values) { return C.ToFloat64(Call("average", values)); }
        public double[] RandomDoubles(int count, long seed) { return C.ToFloat64Array(Call("randomDoubles", count, seed)); }
        public double[] LogTransform(double[] values) { return C.ToFloat64Array(Call("logTransform", values)); }
        public Record GetRecord(string key) { return C.ToRecord(Call("getRecord", key)); }
        public Book[] SearchBooks(string query, int count) { return C.ToBooks(Call("searchBooks", query, count)); }
        public Item[] GetItems(int count) { return C.ToItems(Call("getItems", count)); }
        public void Fail(int code, string message) { C.ToVoid(Call("fail", code, message)); }

        public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk)
        {
            throw new NotSupportedException("randomDoublesStream is a gRPC-only operation");
        }

        public void Dispose()
        {
            http.Dispose();
        }

        /// <summary>
        /// A call; an error object is the contract's BenchError (code and message unchanged), since the contract
        /// carries BenchError as exactly that.
        /// </summary>
        private object Call(string method, params object[] parameters)
        {
            try
            {
                return http.Invoke(method, parameters);
            }
            catch (JsonRpcError e)
            {
                throw new BenchError(e.Code, e.Message);
            }
        }
    }
}
