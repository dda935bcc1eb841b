using System.Collections.Generic;
using NUnit.Framework;
using RpcMatrix.XmlRpc;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.Tests
{
    /// <summary>XmlRpcMapping: the contract's values as XML-RPC values (CONTRACT.md#carriage, xmlrpc row).</summary>
    [TestFixture]
    public class XmlRpcMappingTests
    {
        [Test]
        public void ChecksRanges()
        {
            Assert.AreEqual((sbyte)-128, XmlRpcMapping.ToInt8(-128));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToInt8(128));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToInt16(-32769));
            Assert.AreEqual(long.MinValue, XmlRpcMapping.ToInt64("-9223372036854775808"));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToInt64("9223372036854775808"));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToInt64("12a"));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToInt64(" 1"));
            Assert.AreEqual(0.1f, XmlRpcMapping.ToFloat32((double)0.1f));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToFloat32(0.1));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToVoid(false));
            Assert.Throws<XmlRpcFormatException>(() => XmlRpcMapping.ToInt32("1"));
        }

        [Test]
        public void ConvertersByContractTypeName()
        {
            Assert.AreEqual("-5", XmlRpcMapping.ToWire("int64")(-5L));
            Assert.AreEqual(-5L, XmlRpcMapping.FromWire("timestamp")("-5"));
            Assert.AreEqual(true, XmlRpcMapping.ToWire("void")(null));
            Assert.IsNull(XmlRpcMapping.FromWire("void")(true));
            Assert.AreEqual(-3, XmlRpcMapping.ToWire("int8")((sbyte)-3));
            Assert.Throws<System.ArgumentException>(() => XmlRpcMapping.ToWire("stream float64[]"));
        }

        [Test]
        public void EveryVectorValueRoundTripsThroughTheWire()
        {
            MappingRoundTrip.Check("xmlrpc", (type, value) =>
            {
                byte[] call = XmlRpcWriter.MethodCall("m", new List<object> { XmlRpcMapping.ToWire(type)(value) });
                return XmlRpcMapping.FromWire(type)(XmlRpcParser.ParseMethodCall(call).Parameters[0]);
            });
        }
    }
}
