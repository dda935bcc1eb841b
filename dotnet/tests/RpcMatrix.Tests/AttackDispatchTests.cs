using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    /// <summary>How VectorRunner judges attack vectors (CONTRACT.md#vectors), with a scripted fake client.</summary>
    [TestFixture]
    public class AttackDispatchTests
    {
        /// <summary>A Bench that answers like the reference and whose attacks are refused or answered as told.</summary>
        private class FakeBench : OperationClient
        {
            private readonly ReferenceBench reference = new ReferenceBench();

            protected override object Call(OperationInfo op, object[] args) { return op.Invoke(reference, args); }
            public override IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk) { return reference.RandomDoublesStream(count, seed, chunk); }
            public override void Dispose() { }
        }

        private sealed class FakeAttacker : FakeBench, IAttackClient
        {
            public string Refusal;
            public Exception PingFailure;
            public readonly List<string> Seen = new List<string>();
            public object[] SeenArgs;

            public string Attack(string attack, OperationInfo op, object[] args)
            {
                Seen.Add(attack + " " + op.Name);
                SeenArgs = args;
                return Refusal;
            }

            public void PingAfterAttack()
            {
                if (PingFailure != null)
                {
                    throw PingFailure;
                }
            }
        }

        private static Dictionary<string, VectorResult> Run(IBench client, string protocol)
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            return new VectorRunner(idl, new ReferenceBench()).Run(client, idl.Registry.Get(protocol)).ToDictionary(r => r.Id);
        }

        [Test]
        public void ARefusalFollowedByAServedPingPasses()
        {
            var client = new FakeAttacker { Refusal = "SOAP Fault: The signature is invalid" };
            var results = Run(client, "wss-sign");
            Assert.AreEqual("pass", results["refuse_tampered_body"].Status);
            Assert.AreEqual(client.Refusal, results["refuse_tampered_body"].Reason);
            CollectionAssert.Contains(client.Seen, "tampered-body echoString");
            CollectionAssert.DoesNotContain(client.Seen, "wrong-password ping", "wss-sign lacks username-token");
        }

        [Test]
        public void AnAnsweredAttackFails()
        {
            var result = Run(new FakeAttacker(), "wss-sign")["refuse_missing_security_header"];
            Assert.AreEqual("fail", result.Status);
            Assert.AreEqual("the server answered the defective call", result.Reason);
        }

        [Test]
        public void AServerThatStopsServingFails()
        {
            var client = new FakeAttacker { Refusal = "Fault", PingFailure = new System.IO.IOException("connection refused") };
            var result = Run(client, "wss-sign")["refuse_expired_timestamp"];
            Assert.AreEqual("fail", result.Status);
            Assert.AreEqual("refused (Fault), but then stopped serving: IOException: connection refused", result.Reason);
        }

        [Test]
        public void AClientWithoutAttacksIsAnError()
        {
            var result = Run(new FakeBench(), "wss-sign")["refuse_replayed_message"];
            Assert.AreEqual("error", result.Status);
            Assert.AreEqual("the client implements no attacks", result.Reason);
        }

        [Test]
        public void AttacksAProtocolLacksAreUnsupportedAndNotMade()
        {
            var client = new FakeAttacker { Refusal = "Fault" };
            var results = Run(client, "soap11");
            Assert.AreEqual("unsupported", results["refuse_tampered_body"].Status);
            Assert.AreEqual("pass", results["string_ascii"].Status, "ordinary vectors still run");
            Assert.IsEmpty(client.Seen);
        }
    }
}
