using System;
using System.Collections.Generic;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Hosting;
using RpcMatrix.Soap.Contract;
using C = RpcMatrix.Soap.SoapCarriage;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// Client adapter: a WCF ChannelFactory proxy of ISoapBench (one channel, kept open, keep-alive HTTP); the
    /// declared fault comes back as BenchError.
    /// </summary>
    public sealed class SoapBenchClient : IBenchClient, IMetadataClient
    {
        private readonly ChannelFactory<ISoapBench> factory;
        private readonly ISoapBench proxy;
        private readonly Uri endpoint;

        public SoapBenchClient(Binding binding, string host, int port)
        {
            endpoint = Address(host, port);
            // Mono's HttpWebRequest otherwise waits for "100 Continue" on every POST (~30 ms) and delays with Nagle.
            ServicePointManager.Expect100Continue = false;
            ServicePointManager.UseNagleAlgorithm = false;
            factory = new ChannelFactory<ISoapBench>(binding, new EndpointAddress(Address(host, port)));
            proxy = factory.CreateChannel();
            ((IClientChannel)proxy).Open();
        }

        public static Uri Address(string host, int port)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) && address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6
                ? "[" + host + "]" : host;
            return new Uri("http://" + hostText + ":" + port + SoapBindings.Path);
        }

        public bool PublishedMetadata(out string reason)
        {
            return SoapMetadataCheck.Check(endpoint, out reason);
        }

        public void Ping() { Call(() => proxy.Ping(new PingRequest())); }
        public bool EchoBool(bool value) { return Call(() => proxy.EchoBool(new EchoBoolRequest { Value = value })).Result; }
        public sbyte EchoInt8(sbyte value) { return Call(() => proxy.EchoInt8(new EchoInt8Request { Value = value })).Result; }
        public short EchoInt16(short value) { return Call(() => proxy.EchoInt16(new EchoInt16Request { Value = value })).Result; }
        public int EchoInt32(int value) { return Call(() => proxy.EchoInt32(new EchoInt32Request { Value = value })).Result; }
        public long EchoInt64(long value) { return Call(() => proxy.EchoInt64(new EchoInt64Request { Value = value })).Result; }
        public float EchoFloat32(float value) { return C.ToFloat(Call(() => proxy.EchoFloat32(new EchoFloat32Request { Value = C.Float(value) })).Result); }
        public double EchoFloat64(double value) { return C.ToDouble(Call(() => proxy.EchoFloat64(new EchoFloat64Request { Value = C.Double(value) })).Result); }
        public string EchoString(string value) { return SoapText.Of(Call(() => proxy.EchoString(new EchoStringRequest { Value = new SoapText(value) })).Result); }
        public byte[] EchoBytes(byte[] value) { return Call(() => proxy.EchoBytes(new EchoBytesRequest { Value = value })).Result ?? new byte[0]; }
        public bool IsPrime(int n) { return Call(() => proxy.IsPrime(new IsPrimeRequest { N = n })).Result; }
        public double Average(double[] values) { return C.ToDouble(Call(() => proxy.Average(new AverageRequest { Values = C.Doubles(values) })).Result); }
        public double[] RandomDoubles(int count, long seed) { return C.ToDoubles(Call(() => proxy.RandomDoubles(new RandomDoublesRequest { Count = count, Seed = seed })).Result); }
        public double[] LogTransform(double[] values) { return C.ToDoubles(Call(() => proxy.LogTransform(new LogTransformRequest { Values = C.Doubles(values) })).Result); }
        public Record GetRecord(string key) { return C.ToRecord(Call(() => proxy.GetRecord(new GetRecordRequest { Key = key })).Result); }
        public Book[] SearchBooks(string query, int count) { return C.ToBooks(Call(() => proxy.SearchBooks(new SearchBooksRequest { Query = query, Count = count })).Result); }
        public Item[] GetItems(int count) { return C.ToItems(Call(() => proxy.GetItems(new GetItemsRequest { Count = count })).Result); }
        public void Fail(int code, string message) { Call(() => proxy.Fail(new FailRequest { Code = code, Message = message })); }

        public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk)
        {
            throw new NotSupportedException("randomDoublesStream is a gRPC-only operation");
        }

        public void Dispose()
        {
            try
            {
                ((IClientChannel)proxy).Close();
                factory.Close();
            }
            catch (Exception)
            {
                factory.Abort();
            }
        }

        private static T Call<T>(Func<T> call)
        {
            try
            {
                return call();
            }
            catch (FaultException fault)
            {
                throw SoapFaults.ToBenchError(fault);
            }
        }
    }
}
