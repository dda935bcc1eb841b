using System.ServiceModel;

namespace RpcMatrix.Soap.Contract
{
    /// <summary>
    /// bench.wsdl's port type Bench as a WCF service contract: SOAP actions "urn:rpcmatrix:bench:" + operation, the
    /// document/literal wrapped messages of SoapMessages.cs (XmlSerializer), BenchError as a declared fault.
    /// </summary>
    [ServiceContract(Name = "Bench", Namespace = BenchNamespace.Uri)]
    [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
    public interface ISoapBench
    {
        [OperationContract(Name = "ping", Action = "urn:rpcmatrix:bench:ping", ReplyAction = "urn:rpcmatrix:bench:pingResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        PingResponse Ping(PingRequest request);

        [OperationContract(Name = "echoBool", Action = "urn:rpcmatrix:bench:echoBool", ReplyAction = "urn:rpcmatrix:bench:echoBoolResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoBoolResponse EchoBool(EchoBoolRequest request);

        [OperationContract(Name = "echoInt8", Action = "urn:rpcmatrix:bench:echoInt8", ReplyAction = "urn:rpcmatrix:bench:echoInt8Response")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoInt8Response EchoInt8(EchoInt8Request request);

        [OperationContract(Name = "echoInt16", Action = "urn:rpcmatrix:bench:echoInt16", ReplyAction = "urn:rpcmatrix:bench:echoInt16Response")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoInt16Response EchoInt16(EchoInt16Request request);

        [OperationContract(Name = "echoInt32", Action = "urn:rpcmatrix:bench:echoInt32", ReplyAction = "urn:rpcmatrix:bench:echoInt32Response")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoInt32Response EchoInt32(EchoInt32Request request);

        [OperationContract(Name = "echoInt64", Action = "urn:rpcmatrix:bench:echoInt64", ReplyAction = "urn:rpcmatrix:bench:echoInt64Response")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoInt64Response EchoInt64(EchoInt64Request request);

        [OperationContract(Name = "echoFloat32", Action = "urn:rpcmatrix:bench:echoFloat32", ReplyAction = "urn:rpcmatrix:bench:echoFloat32Response")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoFloat32Response EchoFloat32(EchoFloat32Request request);

        [OperationContract(Name = "echoFloat64", Action = "urn:rpcmatrix:bench:echoFloat64", ReplyAction = "urn:rpcmatrix:bench:echoFloat64Response")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoFloat64Response EchoFloat64(EchoFloat64Request request);

        [OperationContract(Name = "echoString", Action = "urn:rpcmatrix:bench:echoString", ReplyAction = "urn:rpcmatrix:bench:echoStringResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoStringResponse EchoString(EchoStringRequest request);

        [OperationContract(Name = "echoBytes", Action = "urn:rpcmatrix:bench:echoBytes", ReplyAction = "urn:rpcmatrix:bench:echoBytesResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        EchoBytesResponse EchoBytes(EchoBytesRequest request);

        [OperationContract(Name = "isPrime", Action = "urn:rpcmatrix:bench:isPrime", ReplyAction = "urn:rpcmatrix:bench:isPrimeResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        IsPrimeResponse IsPrime(IsPrimeRequest request);

        [OperationContract(Name = "average", Action = "urn:rpcmatrix:bench:average", ReplyAction = "urn:rpcmatrix:bench:averageResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        AverageResponse Average(AverageRequest request);

        [OperationContract(Name = "randomDoubles", Action = "urn:rpcmatrix:bench:randomDoubles", ReplyAction = "urn:rpcmatrix:bench:randomDoublesResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        [FaultContract(typeof(BenchErrorDetail), Name = "BenchError", Namespace = BenchNamespace.Uri)]
        RandomDoublesResponse RandomDoubles(RandomDoublesRequest request);

        [OperationContract(Name = "logTransform", Action = "urn:rpcmatrix:bench:logTransform", ReplyAction = "urn:rpcmatrix:bench:logTransformResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        LogTransformResponse LogTransform(LogTransformRequest request);

        [OperationContract(Name = "getRecord", Action = "urn:rpcmatrix:bench:getRecord", ReplyAction = "urn:rpcmatrix:bench:getRecordResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        GetRecordResponse GetRecord(GetRecordRequest request);

        [OperationContract(Name = "searchBooks", Action = "urn:rpcmatrix:bench:searchBooks", ReplyAction = "urn:rpcmatrix:bench:searchBooksResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        [FaultContract(typeof(BenchErrorDetail), Name = "BenchError", Namespace = BenchNamespace.Uri)]
        SearchBooksResponse SearchBooks(SearchBooksRequest request);

        [OperationContract(Name = "getItems", Action = "urn:rpcmatrix:bench:getItems", ReplyAction = "urn:rpcmatrix:bench:getItemsResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        [FaultContract(typeof(BenchErrorDetail), Name = "BenchError", Namespace = BenchNamespace.Uri)]
        GetItemsResponse GetItems(GetItemsRequest request);

        [OperationContract(Name = "fail", Action = "urn:rpcmatrix:bench:fail", ReplyAction = "urn:rpcmatrix:bench:failResponse")]
        [XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]
        [FaultContract(typeof(BenchErrorDetail), Name = "BenchError", Namespace = BenchNamespace.Uri)]
        FailResponse Fail(FailRequest request);
    }
}
