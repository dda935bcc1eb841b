using System;
using System.Collections.Generic;
using System.Runtime.Remoting;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Hosting;
using RpcMatrix.Remoting.Channel;
using RpcMatrix.Remoting.Service;
using C = RpcMatrix.Remoting.Service.RemotingCarriage;

namespace RpcMatrix.Remoting
{
    /// <summary>
    /// Client adapter: transparent proxies from Activator.GetObject for the Bench and the CalculatorFactory (no
    /// network until the first call); RemoteBenchError comes back as BenchError.
    /// </summary>
    public sealed class RemotingBenchClient : IBenchClient, ICalculatorClient
    {
        private readonly BenchService bench;
        private readonly CalculatorFactoryService factory;

        public RemotingBenchClient(string host, int port)
        {
            RemotingChannels.EnsureClient();
            bench = (BenchService)Activator.GetObject(typeof(BenchService), RemotingChannels.Url(host, port, BenchService.Uri));
            factory = (CalculatorFactoryService)Activator.GetObject(typeof(CalculatorFactoryService),
                RemotingChannels.Url(host, port, CalculatorFactoryService.Uri));
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
        public Record GetRecord(string key) { return C.In(bench.GetRecord(key)); }

        public double[] RandomDoubles(int count, long seed)
        {
            try { return bench.RandomDoubles(count, seed); }
            catch (RemoteBenchError e) { throw new BenchError(e.Code, e.Message); }
        }

        public Book[] SearchBooks(string query, int count)
        {
            try { return C.In(bench.SearchBooks(query, count)); }
            catch (RemoteBenchError e) { throw new BenchError(e.Code, e.Message); }
        }

        public Item[] GetItems(int count)
        {
            try { return C.In(bench.GetItems(count)); }
            catch (RemoteBenchError e) { throw new BenchError(e.Code, e.Message); }
        }

        public void Fail(int code, string message)
        {
            try { bench.Fail(code, message); }
            catch (RemoteBenchError e) { throw new BenchError(e.Code, e.Message); }
        }

        public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk)
        {
            throw new NotSupportedException("randomDoublesStream is a gRPC-only operation");
        }

        public ICalculator Create()
        {
            return new RemoteCalculator(factory.Create());
        }

        /// <summary>A call on a disconnected object is refused with RemotingException ("no receiver for uri").</summary>
        public bool IsNoSuchObject(Exception e)
        {
            return e is RemotingException;
        }

        /// <summary>The proxies hold nothing; the channel's pooled connection closes when idle or at exit.</summary>
        public void Dispose()
        {
        }

        private sealed class RemoteCalculator : ICalculator
        {
            private readonly CalculatorService proxy;

            public RemoteCalculator(CalculatorService proxy)
            {
                this.proxy = proxy;
            }

            public long Add(long n) { return proxy.Add(n); }
            public void Clear() { proxy.Clear(); }
            public long Total() { return proxy.Total(); }
            public void Release() { proxy.Release(); }
        }
    }
}
