using System.Runtime.Serialization;
using System.Xml.Serialization;

namespace RpcMatrix.Soap.Contract
{
    /// <summary>bench.xsd's namespace, the WSDL's target namespace.</summary>
    public static class BenchNamespace
    {
        public const string Uri = "urn:rpcmatrix:bench";
    }

    // bench.xsd's complex types for XmlSerializer. Doubles and floats travel as xs:double/xs:float text written
    // and read by SoapMapping (exact), because Mono's XmlConvert double formatting and parsing are not.

    [XmlType("Record", Namespace = BenchNamespace.Uri)]
    public sealed class SoapRecord
    {
        [XmlElement("id", Order = 0)] public long Id;
        [XmlElement("tags", Order = 1)] public string[] Tags;
        [XmlElement("values", Order = 2)] public string[] Values;
    }

    [XmlType("Book", Namespace = BenchNamespace.Uri)]
    public sealed class SoapBook
    {
        [XmlElement("title", Order = 0)] public string Title;
        [XmlElement("authors", Order = 1)] public string[] Authors;
        [XmlElement("price", Order = 2)] public string Price;
        [XmlElement("listPrice", Order = 3)] public string ListPrice;
        [XmlElement("publisher", Order = 4)] public string Publisher;
        [XmlElement("year", Order = 5)] public int Year;
        [XmlElement("month", Order = 6)] public int Month;
        [XmlElement("keywords", Order = 7)] public string[] Keywords;
        [XmlElement("isbn", Order = 8)] public string Isbn;
        [XmlElement("starRating", Order = 9)] public int StarRating;
        [XmlElement("url", Order = 10)] public string Url;
    }

    [XmlType("Item", Namespace = BenchNamespace.Uri)]
    public sealed class SoapItem
    {
        [XmlElement("id", Order = 0)] public long Id;
        [XmlElement("title", Order = 1)] public string Title;
        [XmlElement("description", Order = 2)] public string Description;
        [XmlElement("category", Order = 3)] public string Category;
        [XmlElement("owner", Order = 4)] public string Owner;
        [XmlElement("created", Order = 5)] public long Created;
        [XmlElement("updated", Order = 6)] public long Updated;
        [XmlElement("quantity", Order = 7)] public int Quantity;
        [XmlElement("price", Order = 8)] public string Price;
        [XmlElement("weight", Order = 9)] public string Weight;
    }

    /// <summary>The fault detail: bench.xsd's element tns:BenchError {code, message}.</summary>
    [DataContract(Name = "BenchError", Namespace = BenchNamespace.Uri)]
    public sealed class BenchErrorDetail
    {
        [DataMember(Name = "code", Order = 0, IsRequired = true)] public int Code;
        [DataMember(Name = "message", Order = 1, IsRequired = true)] public string Message;
    }
}
