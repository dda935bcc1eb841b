using System.Collections.Generic;
using NUnit.Framework;
using RpcMatrix.Core.Json;
using RpcMatrix.JsonRpc;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.Tests
{
    /// <summary>JsonRpcMapping: the contract's values as JSON (CONTRACT.md#carriage, jsonrpc row).</summary>
    [TestFixture]
    public class JsonRpcMappingTests
    {
        [Test]
        public void ConvertersByContractTypeName()
        {
            Assert.IsNull(JsonRpcMapping.ToWire("void")(null));
            Assert.IsNull(JsonRpcMapping.FromWire("void")(null));
            Assert.AreEqual("AP8=", JsonRpcMapping.ToWire("bytes")(new byte[] { 0, 255 }));
            Assert.AreEqual(-3, JsonRpcMapping.ToWire("int8")((sbyte)-3));
            Assert.AreEqual(JsonRpcError.InvalidParams, Assert.Throws<JsonRpcError>(() => JsonRpcMapping.FromWire("int8")(new JsonNumber("128"))).Code);
            Assert.Throws<System.ArgumentException>(() => JsonRpcMapping.FromWire("stream float64[]"));
        }

        [Test]
        public void EveryVectorValueRoundTripsThroughTheWire()
        {
            MappingRoundTrip.Check("jsonrpc", (type, value) =>
            {
                string text = JsonWriter.Write(new List<object> { JsonRpcMapping.ToWire(type)(value) });
                return JsonRpcMapping.FromWire(type)(((List<object>)JsonParser.Parse(text))[0]);
            });
        }
    }
}
