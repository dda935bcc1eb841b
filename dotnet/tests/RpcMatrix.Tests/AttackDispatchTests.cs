using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    /// <summary>How VectorRunner judges attack vectors (CONTRACT.md#vectors), with a scripted fake client.</summary>
    [TestFixture]
    public class AttackDispatchTests
    {
        /// <summary>A Bench that answers like the reference and whose attacks are refused or answered as told.</summary>
        private class FakeBench : IBench
        {
            private readonly ReferenceBench reference = new ReferenceBench();
            public void Ping() { }
            public bool EchoBool(bool value) { return value; }
            public sbyte EchoInt8(sbyte value) { return value; }
            public short EchoInt16(short value) { return value; }
            public int EchoInt32(int value) { return value; }
            public long EchoInt64(long value) { return value; }
            public float EchoFloat32(float value) { return value; }
            public double EchoFloat64(double value) { return value; }
            public string EchoString(string value) { return value; }
            public byte[] EchoBytes(byte[] value) { return value; }
            public bool IsPrime(int n) { return reference.IsPrime(n); }
            public double Average(double[] values) { return reference.Average(values); }
            public double[] RandomDoubles(int count, long seed) { return reference.RandomDoubles(count, seed); }
            public double[] LogTransform(double[] values) { return reference.LogTransform(values); }
            public Record GetRecord(string key) { return reference.GetRecord(key); }
            public Book[] SearchBooks(string query, int count) { return reference.SearchBooks(query, count); }
            public Item[] GetItems(int count) { return reference.GetItems(count); }
            public void Fail(int code, string message) { reference.Fail(code, message); }
            public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk) { return reference.RandomDoublesStream(count, seed, chunk); }
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
