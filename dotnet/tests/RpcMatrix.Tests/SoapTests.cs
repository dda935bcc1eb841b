using System;
using System.Linq;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;
using RpcMatrix.Soap;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Tests
{
    /// <summary>The SOAP dispatcher and fault mapping on messages, and the Mono WCF client against its server.</summary>
    [TestFixture]
    public class SoapTests
    {
        private const string Ns = "urn:rpcmatrix:bench";

        private static SoapDispatcher Dispatcher()
        {
            return new SoapDispatcher(new ReferenceBench(), MessageVersion.Soap11);
        }

        private static Message Request(string action, string body)
        {
            var reader = XmlReader.Create(new System.IO.StringReader(body));
            return Message.CreateMessage(MessageVersion.Soap11, action, reader);
        }

        private static string BodyOf(Message reply)
        {
            using (XmlDictionaryReader reader = reply.GetReaderAtBodyContents())
            {
                reader.MoveToContent();
                return reader.ReadOuterXml();
            }
        }

        [Test]
        public void DispatchesByActionAndAnswersExactDoubles()
        {
            Message reply = Dispatcher().Dispatch(Request("urn:rpcmatrix:bench:echoFloat64",
                "<echoFloat64 xmlns='" + Ns + "'><value>0.1</value></echoFloat64>"));
            string body = BodyOf(reply);
            StringAssert.Contains("echoFloat64Response", body);
            StringAssert.Contains(">0.1</result>", body);
        }

        [Test]
        public void DispatchesByBodyElementWithoutAnAction()
        {
            Message reply = Dispatcher().Dispatch(Request("",
                "<average xmlns='" + Ns + "'><values>1</values><values>4</values></average>"));
            StringAssert.Contains(">2.5</result>", BodyOf(reply));
        }

        [Test]
        public void BenchErrorBecomesTheDeclaredFaultAndBackAgain()
        {
            Message reply = Dispatcher().Dispatch(Request("urn:rpcmatrix:bench:fail",
                "<fail xmlns='" + Ns + "'><code>7</code><message>boom</message></fail>"));
            Assert.IsTrue(reply.IsFault);
            MessageBuffer buffer = reply.CreateBufferedCopy(int.MaxValue);
            MessageFault fault = MessageFault.CreateFault(buffer.CreateMessage(), int.MaxValue);
            Assert.AreEqual("boom", fault.Reason.GetMatchingTranslation().Text);
            BenchErrorDetail detail = SoapFaults.ReadDetail(fault);
            Assert.AreEqual(7, detail.Code);
            Assert.AreEqual("boom", detail.Message);
            var error = SoapFaults.ToBenchError(new FaultException(MessageFault.CreateFault(buffer.CreateMessage(), int.MaxValue))) as BenchError;
            Assert.IsNotNull(error);
            Assert.AreEqual(7, error.Code);
        }

        [Test]
        public void AFaultWithoutBenchErrorStaysAProtocolError()
        {
            Message reply = Dispatcher().Dispatch(Request("urn:rpcmatrix:bench:nothing", "<nothing xmlns='" + Ns + "'/>"));
            Assert.IsTrue(reply.IsFault);
            Exception mapped = SoapFaults.ToBenchError(new FaultException(MessageFault.CreateFault(reply, int.MaxValue)));
            Assert.IsInstanceOf<ProtocolException>(mapped);
        }

        [Test]
        public void ABadDoubleIsRefusedNotTruncated()
        {
            Message reply = Dispatcher().Dispatch(Request("urn:rpcmatrix:bench:echoFloat64",
                "<echoFloat64 xmlns='" + Ns + "'><value>1.5x</value></echoFloat64>"));
            Assert.IsTrue(reply.IsFault);
        }

        [TestCase("soap11")]
        [TestCase("soap12")]
        public void WcfClientAgainstHttpServerPassesTheVectors(string protocol)
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            Protocol p = idl.Registry.Get(protocol);
            Binding binding = SoapBindings.For(p);
            var server = new SoapServer(binding, new SoapDispatcher(new ReferenceBench(), binding.MessageVersion));
            int port = server.Start(IPAddress.Loopback, 0);
            try
            {
                using (var client = new SoapClient(SoapBindings.For(p), "127.0.0.1", port))
                {
                    VectorOutcomes.AssertExact(idl, p, new VectorRunner(idl, new ReferenceBench()).Run(client, p));
                }
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void AClientBindingThroughAProxyTakesWcfsOwnSettings()
        {
            Protocol p = IdlFiles.Load(IdlPaths.Directory).Registry.Get("soap11");
            var through = SoapBindings.For(p, new Uri("http://198.18.0.5:3128")).CreateBindingElements().Find<HttpTransportBindingElement>();
            Assert.AreEqual(new Uri("http://198.18.0.5:3128"), through.ProxyAddress);
            Assert.IsFalse(through.UseDefaultWebProxy);
            Assert.IsFalse(through.BypassProxyOnLocal);
            Assert.IsFalse(through.KeepAliveEnabled, "a connection per request: the proxy closes each after its answer");
            var direct = SoapBindings.For(p).CreateBindingElements().Find<HttpTransportBindingElement>();
            Assert.IsNull(direct.ProxyAddress);
            Assert.IsTrue(direct.KeepAliveEnabled);
        }
    }
}
