using System.ServiceModel;
using RpcMatrix.Core.Contract;
using RpcMatrix.Soap.Contract;
using C = RpcMatrix.Soap.SoapCarriage;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// The Bench service class: each bench.wsdl operation answered by the contract's reference behaviour, a
    /// BenchError thrown as the declared SOAP fault. Uses only the service contract's types and FaultException, so
    /// the same class hosts on WCF's ServiceHost or CoreWCF unchanged; here SoapDispatcher calls it.
    /// </summary>
    public sealed class SoapBenchService : ISoapBench
    {
        private readonly IBench bench;

        public SoapBenchService(IBench bench)
        {
            this.bench = bench;
        }

        public PingResponse Ping(PingRequest r) { bench.Ping(); return new PingResponse(); }
        public EchoBoolResponse EchoBool(EchoBoolRequest r) { return new EchoBoolResponse { Result = bench.EchoBool(r.Value) }; }
        public EchoInt8Response EchoInt8(EchoInt8Request r) { return new EchoInt8Response { Result = bench.EchoInt8(r.Value) }; }
        public EchoInt16Response EchoInt16(EchoInt16Request r) { return new EchoInt16Response { Result = bench.EchoInt16(r.Value) }; }
        public EchoInt32Response EchoInt32(EchoInt32Request r) { return new EchoInt32Response { Result = bench.EchoInt32(r.Value) }; }
        public EchoInt64Response EchoInt64(EchoInt64Request r) { return new EchoInt64Response { Result = bench.EchoInt64(r.Value) }; }
        public EchoFloat32Response EchoFloat32(EchoFloat32Request r) { return new EchoFloat32Response { Result = C.Float(bench.EchoFloat32(C.ToFloat(r.Value))) }; }
        public EchoFloat64Response EchoFloat64(EchoFloat64Request r) { return new EchoFloat64Response { Result = C.Double(bench.EchoFloat64(C.ToDouble(r.Value))) }; }
        public EchoStringResponse EchoString(EchoStringRequest r) { return new EchoStringResponse { Result = new SoapText(bench.EchoString(SoapText.Of(r.Value))) }; }
        public EchoBytesResponse EchoBytes(EchoBytesRequest r) { return new EchoBytesResponse { Result = bench.EchoBytes(r.Value ?? new byte[0]) }; }
        public IsPrimeResponse IsPrime(IsPrimeRequest r) { return new IsPrimeResponse { Result = bench.IsPrime(r.N) }; }
        public AverageResponse Average(AverageRequest r) { return new AverageResponse { Result = C.Double(bench.Average(C.ToDoubles(r.Values))) }; }
        public LogTransformResponse LogTransform(LogTransformRequest r) { return new LogTransformResponse { Result = C.Doubles(bench.LogTransform(C.ToDoubles(r.Values))) }; }
        public GetRecordResponse GetRecord(GetRecordRequest r) { return new GetRecordResponse { Result = C.Record(bench.GetRecord(r.Key ?? "")) }; }

        public RandomDoublesResponse RandomDoubles(RandomDoublesRequest r)
        {
            try { return new RandomDoublesResponse { Result = C.Doubles(bench.RandomDoubles(r.Count, r.Seed)) }; }
            catch (BenchError e) { throw Fault(e); }
        }

        public SearchBooksResponse SearchBooks(SearchBooksRequest r)
        {
            try { return new SearchBooksResponse { Result = C.Books(bench.SearchBooks(r.Query ?? "", r.Count)) }; }
            catch (BenchError e) { throw Fault(e); }
        }

        public GetItemsResponse GetItems(GetItemsRequest r)
        {
            try { return new GetItemsResponse { Result = C.Items(bench.GetItems(r.Count)) }; }
            catch (BenchError e) { throw Fault(e); }
        }

        public FailResponse Fail(FailRequest r)
        {
            try { bench.Fail(r.Code, r.Message ?? ""); return new FailResponse(); }
            catch (BenchError e) { throw Fault(e); }
        }

        /// <summary>BenchError as bench.wsdl's declared fault: faultstring the message, detail tns:BenchError.</summary>
        public static FaultException<BenchErrorDetail> Fault(BenchError e)
        {
            var detail = new BenchErrorDetail { Code = e.Code, Message = e.Message };
            return new FaultException<BenchErrorDetail>(detail, new FaultReason(e.Message), FaultCode.CreateReceiverFaultCode(null));
        }
    }
}
