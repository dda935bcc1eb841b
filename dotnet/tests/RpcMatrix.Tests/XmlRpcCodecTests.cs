using System;
using System.Collections.Generic;
using System.Text;
using NUnit.Framework;
using RpcMatrix.XmlRpc;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class XmlRpcCodecTests
    {
        private static object RoundTrip(object value)
        {
            return XmlRpcParser.ParseResponse(XmlRpcWriter.Response(value));
        }

        private static object Parse(string valueXml)
        {
            string xml = "<?xml version=\"1.0\"?>\n<methodResponse>\n  <params><param>" + valueXml + "</param></params>\n</methodResponse>\n";
            return XmlRpcParser.ParseResponse(Encoding.UTF8.GetBytes(xml));
        }

        [Test]
        public void EveryTypeRoundTrips()
        {
            var when = new DateTime(1998, 7, 17, 14, 8, 55);
            var value = new Dictionary<string, object>
            {
                { "int", int.MinValue },
                { "bool", true },
                { "string", "<&>]]> \"q\" 'a'" },
                { "double", -0.0 },
                { "date", when },
                { "bytes", new byte[] { 0, 1, 255 } },
                { "array", new object[] { 1, "two", new object[0] } },
                { "struct", new Dictionary<string, object>() },
            };
            var back = (Dictionary<string, object>)RoundTrip(value);
            Assert.AreEqual(int.MinValue, back["int"]);
            Assert.AreEqual(true, back["bool"]);
            Assert.AreEqual("<&>]]> \"q\" 'a'", back["string"]);
            Assert.AreEqual(unchecked((long)0x8000000000000000UL), BitConverter.DoubleToInt64Bits((double)back["double"]));
            Assert.AreEqual(when, back["date"]);
            Assert.AreEqual(new byte[] { 0, 1, 255 }, back["bytes"]);
            var array = (List<object>)back["array"];
            Assert.AreEqual(1, array[0]);
            Assert.AreEqual("two", array[1]);
            Assert.AreEqual(0, ((List<object>)array[2]).Count);
            Assert.AreEqual(0, ((Dictionary<string, object>)back["struct"]).Count);
        }

        [Test]
        public void CarriageReturnTravelsAsACharacterReference()
        {
            string xml = Encoding.UTF8.GetString(XmlRpcWriter.Response("a\r\nb\rc"));
            StringAssert.Contains("<string>a&#13;\nb&#13;c</string>", xml);
            Assert.AreEqual("a\r\nb\rc", RoundTrip("a\r\nb\rc"));
            Assert.AreEqual("a\nb\nc", Parse("<value><string>a\r\nb\rc</string></value>"), "raw CR is normalised by XML");
        }

        [Test]
        public void NonBmpAndTabsAndWhitespaceSurvive()
        {
            string text = "𝄞 clef, 😀 grin\t  ";
            Assert.AreEqual(text, RoundTrip(text));
            StringAssert.Contains("𝄞", Encoding.UTF8.GetString(XmlRpcWriter.Response(text)));
            Assert.AreEqual("  ", Parse("<value><string>  </string></value>"));
        }

        [Test]
        public void ForbiddenCharactersAreNeverEmitted()
        {
            Assert.Throws<ArgumentException>(() => XmlRpcWriter.Response("nul\u0000"));
            Assert.Throws<ArgumentException>(() => XmlRpcWriter.Response("esc\u001b"));
            Assert.Throws<ArgumentException>(() => XmlRpcWriter.Response("lone \ud800 surrogate"));
            Assert.Throws<ArgumentException>(() => XmlRpcWriter.Response(double.NaN));
            Assert.Throws<ArgumentException>(() => XmlRpcWriter.Response(double.PositiveInfinity));
        }

        [Test]
        public void SubnormalsAndExtremesRoundTripExactly()
        {
            foreach (long bits in new[] { 1L, 0x000FFFFFFFFFFFFFL, 0x0010000000000000L, 0x7FEFFFFFFFFFFFFFL, 0x3FB999999999999AL })
            {
                double d = BitConverter.Int64BitsToDouble(bits);
                Assert.AreEqual(bits, BitConverter.DoubleToInt64Bits((double)RoundTrip(d)));
            }
        }

        [Test]
        public void ReadsEveryTypeSpelling()
        {
            Assert.AreEqual("untyped", Parse("<value>untyped</value>"));
            Assert.AreEqual("", Parse("<value/>"));
            Assert.AreEqual("", Parse("<value><string/></value>"));
            Assert.AreEqual(-5, Parse("<value><i4>-5</i4></value>"));
            Assert.AreEqual(7, Parse("<value>\n  <int> +7 </int>\n</value>"));
            Assert.AreEqual(4294967296L, Parse("<value><i8>4294967296</i8></value>"));
            Assert.AreEqual(false, Parse("<value><boolean>0</boolean></value>"));
            Assert.AreEqual(1.5e300, Parse("<value><double>1.5E+300</double></value>"));
            Assert.AreEqual(0.5, Parse("<value><double>.5</double></value>"));
            Assert.AreEqual(new DateTime(1998, 7, 17, 14, 8, 55), Parse("<value><dateTime.iso8601>19980717T14:08:55</dateTime.iso8601></value>"));
            Assert.AreEqual(new byte[] { 1, 2, 3 }, Parse("<value><base64>AQ\n ID</base64></value>"));
            Assert.AreEqual("x", Parse("<value><string><![CDATA[x]]></string></value>"));
            Assert.IsNull(Parse("<value><nil/></value>"));
            var s = (Dictionary<string, object>)Parse("<value><struct><member><name>a</name><value><int>1</int></value></member></struct></value>");
            Assert.AreEqual(1, s["a"]);
            Assert.AreEqual(0, ((List<object>)Parse("<value><array><data/></array></value>")).Count);
        }

        [Test]
        public void RejectsInvalidValues()
        {
            Assert.Throws<XmlRpcFormatException>(() => Parse("<value><int>2147483648</int></value>"));
            Assert.Throws<XmlRpcFormatException>(() => Parse("<value><boolean>yes</boolean></value>"));
            Assert.Throws<XmlRpcFormatException>(() => Parse("<value><double>NaN</double></value>"));
            Assert.Throws<XmlRpcFormatException>(() => Parse("<value><float>1</float></value>"));
            Assert.Throws<XmlRpcFormatException>(() => Parse("<value>text<int>1</int></value>"));
            Assert.Throws<System.Xml.XmlException>(() => Parse("<value><string>&#1;</string></value>"));
            Assert.Throws<System.Xml.XmlException>(() => XmlRpcParser.ParseResponse(Encoding.UTF8.GetBytes(
                "<!DOCTYPE x [<!ENTITY e \"boom\">]><methodResponse/>")));
        }

        [Test]
        public void FaultsRoundTrip()
        {
            var fault = Assert.Throws<XmlRpcFault>(() => XmlRpcParser.ParseResponse(XmlRpcWriter.Fault(-1, "<&> Grüße 𝄞\r")));
            Assert.AreEqual(-1, fault.Code);
            Assert.AreEqual("<&> Grüße 𝄞\r", fault.Message);
        }

        [Test]
        public void MethodCallRoundTrips()
        {
            XmlRpcMethodCall call = XmlRpcParser.ParseMethodCall(XmlRpcWriter.MethodCall("echoInt64", new object[] { "-42", 3 }));
            Assert.AreEqual("echoInt64", call.MethodName);
            Assert.AreEqual(new object[] { "-42", 3 }, call.Parameters);
            Assert.AreEqual(0, XmlRpcParser.ParseMethodCall(Encoding.UTF8.GetBytes("<methodCall><methodName>ping</methodName></methodCall>")).Parameters.Length);
        }

        [Test]
        public void ServiceTurnsBenchErrorIntoAFault()
        {
            var service = new XmlRpcServer(new RpcMatrix.Core.Reference.ReferenceBench(), false);
            var fault = Assert.Throws<XmlRpcFault>(() => service.Invoke("fail", new object[] { 42, "boom" }));
            Assert.AreEqual(42, fault.Code);
            Assert.AreEqual("boom", fault.Message);
            Assert.AreEqual(XmlRpcFault.MethodNotFound, Assert.Throws<XmlRpcFault>(() => service.Invoke("nope", new object[0])).Code);
            Assert.AreEqual(XmlRpcFault.InvalidParams, Assert.Throws<XmlRpcFault>(() => service.Invoke("echoInt8", new object[] { 300 })).Code);
            Assert.AreEqual(true, service.Invoke("ping", new object[0]));
        }
    }
}
