using System.ServiceModel;
using System.Xml.Serialization;

namespace RpcMatrix.Soap.Contract
{
    // bench.wsdl's document/literal wrapped messages: the wrapper element is the operation (request) or the
    // operation + "Response", its children the parameters or "result"; sequences are repeated elements.
    // Written from bench.wsdl/bench.xsd (Mono's svcutil finds no contract in them, see dotnet/README.md).

    [MessageContract(IsWrapped = true, WrapperName = "ping", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class PingRequest
    {
    }

    [MessageContract(IsWrapped = true, WrapperName = "pingResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class PingResponse
    {
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoBool", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoBoolRequest
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public bool Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoBoolResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoBoolResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public bool Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt8", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt8Request
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public sbyte Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt8Response", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt8Response
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public sbyte Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt16", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt16Request
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public short Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt16Response", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt16Response
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public short Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt32", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt32Request
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public int Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt32Response", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt32Response
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public int Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt64", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt64Request
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public long Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoInt64Response", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoInt64Response
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public long Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoFloat32", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoFloat32Request
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public string Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoFloat32Response", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoFloat32Response
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public string Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoFloat64", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoFloat64Request
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public string Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoFloat64Response", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoFloat64Response
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public string Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoString", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoStringRequest
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public SoapText Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoStringResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoStringResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public SoapText Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoBytes", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoBytesRequest
    {
        [MessageBodyMember(Name = "value", Namespace = BenchNamespace.Uri, Order = 0)] public byte[] Value;
    }

    [MessageContract(IsWrapped = true, WrapperName = "echoBytesResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class EchoBytesResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public byte[] Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "isPrime", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class IsPrimeRequest
    {
        [MessageBodyMember(Name = "n", Namespace = BenchNamespace.Uri, Order = 0)] public int N;
    }

    [MessageContract(IsWrapped = true, WrapperName = "isPrimeResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class IsPrimeResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public bool Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "average", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class AverageRequest
    {
        [MessageBodyMember(Name = "values", Namespace = BenchNamespace.Uri, Order = 0)] [XmlElement("values")] public string[] Values;
    }

    [MessageContract(IsWrapped = true, WrapperName = "averageResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class AverageResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public string Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "randomDoubles", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class RandomDoublesRequest
    {
        [MessageBodyMember(Name = "count", Namespace = BenchNamespace.Uri, Order = 0)] public int Count;
        [MessageBodyMember(Name = "seed", Namespace = BenchNamespace.Uri, Order = 1)] public long Seed;
    }

    [MessageContract(IsWrapped = true, WrapperName = "randomDoublesResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class RandomDoublesResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] [XmlElement("result")] public string[] Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "logTransform", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class LogTransformRequest
    {
        [MessageBodyMember(Name = "values", Namespace = BenchNamespace.Uri, Order = 0)] [XmlElement("values")] public string[] Values;
    }

    [MessageContract(IsWrapped = true, WrapperName = "logTransformResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class LogTransformResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] [XmlElement("result")] public string[] Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "getRecord", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class GetRecordRequest
    {
        [MessageBodyMember(Name = "key", Namespace = BenchNamespace.Uri, Order = 0)] public string Key;
    }

    [MessageContract(IsWrapped = true, WrapperName = "getRecordResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class GetRecordResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] public SoapRecord Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "searchBooks", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class SearchBooksRequest
    {
        [MessageBodyMember(Name = "query", Namespace = BenchNamespace.Uri, Order = 0)] public string Query;
        [MessageBodyMember(Name = "count", Namespace = BenchNamespace.Uri, Order = 1)] public int Count;
    }

    [MessageContract(IsWrapped = true, WrapperName = "searchBooksResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class SearchBooksResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] [XmlElement("result")] public SoapBook[] Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "getItems", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class GetItemsRequest
    {
        [MessageBodyMember(Name = "count", Namespace = BenchNamespace.Uri, Order = 0)] public int Count;
    }

    [MessageContract(IsWrapped = true, WrapperName = "getItemsResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class GetItemsResponse
    {
        [MessageBodyMember(Name = "result", Namespace = BenchNamespace.Uri, Order = 0)] [XmlElement("result")] public SoapItem[] Result;
    }

    [MessageContract(IsWrapped = true, WrapperName = "fail", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class FailRequest
    {
        [MessageBodyMember(Name = "code", Namespace = BenchNamespace.Uri, Order = 0)] public int Code;
        [MessageBodyMember(Name = "message", Namespace = BenchNamespace.Uri, Order = 1)] public string Message;
    }

    [MessageContract(IsWrapped = true, WrapperName = "failResponse", WrapperNamespace = BenchNamespace.Uri)]
    public sealed class FailResponse
    {
    }
}
