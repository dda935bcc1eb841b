using System;
using RpcMatrix.Core.Contract;
using C = RpcMatrix.Remoting.Service.RemotingMapping;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>
    /// The Bench as a well-known singleton (URI "Bench"): each contract operation onto the reference behaviour,
    /// BenchError as RemoteBenchError. It lives as long as the server (no lease).
    /// </summary>
    public sealed class BenchService : MarshalByRefObject
    {
        public const string Uri = "Bench";

        private readonly IBench bench;

        public BenchService(IBench bench)
        {
            this.bench = bench;
        }

        public override object InitializeLifetimeService()
        {
            return null;
        }

        public void Ping() { bench.Ping(); }
        public bool EchoBool(bool value) { return bench.EchoBool(value); }
        public sbyte EchoInt8(sbyte value) { return bench.EchoInt8(value); }
        public short EchoInt16(short value) { return bench.EchoInt16(value); }
        public int EchoInt32(int value) { return bench.EchoInt32(value); }
        public long EchoInt64(long value) { return bench.EchoInt64(value); }
        public float EchoFloat32(float value) { return bench.EchoFloat32(value); }
        public double EchoFloat64(double value) { return bench.EchoFloat64(value); }
        public string EchoString(string value) { return bench.EchoString(value); }
        public byte[] EchoBytes(byte[] value) { return bench.EchoBytes(value); }
        public bool IsPrime(int n) { return bench.IsPrime(n); }
        public double Average(double[] values) { return bench.Average(values); }
        public double[] LogTransform(double[] values) { return bench.LogTransform(values); }
        public RemoteRecord GetRecord(string key) { return C.Out(bench.GetRecord(key)); }

        public double[] RandomDoubles(int count, long seed)
        {
            try { return bench.RandomDoubles(count, seed); }
            catch (BenchError e) { throw new RemoteBenchError(e.Code, e.Message); }
        }

        public RemoteBook[] SearchBooks(string query, int count)
        {
            try { return C.Out(bench.SearchBooks(query, count)); }
            catch (BenchError e) { throw new RemoteBenchError(e.Code, e.Message); }
        }

        public RemoteItem[] GetItems(int count)
        {
            try { return C.Out(bench.GetItems(count)); }
            catch (BenchError e) { throw new RemoteBenchError(e.Code, e.Message); }
        }

        public void Fail(int code, string message)
        {
            try { bench.Fail(code, message); }
            catch (BenchError e) { throw new RemoteBenchError(e.Code, e.Message); }
        }
    }
}
