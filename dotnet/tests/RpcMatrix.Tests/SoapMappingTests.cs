using System;
using System.Linq;
using System.Runtime.Remoting.Messaging;
using System.Runtime.Remoting.Proxies;
using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;
using RpcMatrix.Soap;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Tests
{
    /// <summary>SoapMapping and the operation table bound to ISoapBench's message contracts (SoapOperation).</summary>
    [TestFixture]
    public class SoapMappingTests
    {
        [Test]
        public void MappingKeepsEveryDoubleBitAndTheNamesOfXsd()
        {
            Assert.AreEqual("INF", SoapMapping.Double(double.PositiveInfinity));
            Assert.AreEqual("-INF", SoapMapping.Double(double.NegativeInfinity));
            Assert.AreEqual("-0.0", SoapMapping.Double(-0.0));
            Assert.IsTrue(double.IsNaN(SoapMapping.ToDouble(" NaN ")));
            Assert.AreEqual(BitConverter.DoubleToInt64Bits(-0.0), BitConverter.DoubleToInt64Bits(SoapMapping.ToDouble("-0")));
            Assert.AreEqual(4.9e-324, SoapMapping.ToDouble(SoapMapping.Double(4.9e-324)));
            Assert.AreEqual(0.1f, SoapMapping.ToFloat("0.1"));
        }

        [Test]
        public void ConvertersFollowTheMessageMembersType()
        {
            Assert.AreEqual("a\r", ((SoapText)SoapMapping.ToWire("string", typeof(SoapText))("a\r")).Value);
            Assert.AreEqual("", SoapMapping.FromWire("string", typeof(string))(null), "an absent string element");
            Assert.AreEqual(new byte[0], SoapMapping.FromWire("bytes", typeof(byte[]))(null));
            Assert.Throws<ArgumentException>(() => SoapMapping.ToWire("float64", typeof(double)), "xs:double travels as exact text");
            Assert.Throws<ArgumentException>(() => SoapMapping.FromWire("int16", typeof(int)));
        }

        /// <summary>The table's faults are bench.wsdl's: an operation declares BenchError exactly when contract.json says it raises it.</summary>
        [Test]
        public void EveryOperationHasItsMessagesAndDeclaredFault()
        {
            foreach (OperationInfo op in Operations.All)
            {
                SoapOperation soap = SoapOperation.Table[op.Id];
                if (op.IsStream)
                {
                    Assert.IsNull(soap, op.Name);
                    continue;
                }
                Assert.AreEqual(op.Raises != null, soap.DeclaresBenchError, op.Name);
                Assert.AreEqual("urn:rpcmatrix:bench:" + op.Name, soap.Action);
                Assert.AreEqual("urn:rpcmatrix:bench:" + op.Name + "Response", soap.ReplyAction);
            }
            Assert.AreEqual(Operations.All.Count(op => !op.IsStream), typeof(ISoapBench).GetMethods().Length);
        }

        /// <summary>Client side (Call) into server side (Answer) through the message contract objects, no XML: every vector.</summary>
        [Test]
        public void EveryVectorCallsThroughTheMessageContracts()
        {
            var answering = new AnsweringProxy();
            var proxy = (ISoapBench)answering.GetTransparentProxy();
            MappingRoundTrip.CheckCalls("soap11", (op, args) =>
            {
                answering.Raised = null;
                try
                {
                    return SoapOperation.Table[op.Id].Call(proxy, args);
                }
                catch (Exception) when (answering.Raised != null)
                {
                    throw answering.Raised;
                }
            });
        }

        /// <summary>ISoapBench answered in memory by SoapOperation.Answer on the reference.</summary>
        private sealed class AnsweringProxy : RealProxy
        {
            private readonly ReferenceBench reference = new ReferenceBench();

            public BenchError Raised;

            public AnsweringProxy() : base(typeof(ISoapBench))
            {
            }

            public override IMessage Invoke(IMessage message)
            {
                var call = (IMethodCallMessage)message;
                SoapOperation soap = SoapOperation.Table.First(s => s != null && s.Method == call.MethodBase);
                try
                {
                    return new ReturnMessage(soap.Answer(reference, call.Args[0]), null, 0, call.LogicalCallContext, call);
                }
                catch (BenchError e)
                {
                    // What SoapDispatcher answers as the declared fault and SoapFaults reads back, without the XML.
                    // BenchError is not serializable, which a RealProxy's exception must be: the test throws it.
                    Raised = new BenchError(e.Code, e.Message);
                    return new ReturnMessage(new InvalidOperationException("BenchError"), call);
                }
            }
        }
    }
}
