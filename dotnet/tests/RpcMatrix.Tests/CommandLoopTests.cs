using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Hosting;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class CommandLoopTests
    {
        /// <summary>An in-process client: the reference behaviour, optionally corrupting one operation.</summary>
        private sealed class FakeClient : IBenchClient
        {
            private readonly ReferenceBench reference = new ReferenceBench();
            public bool BreakEchoInt32;
            public bool Disposed;

            public void Ping() { reference.Ping(); }
            public bool EchoBool(bool value) { return value; }
            public sbyte EchoInt8(sbyte value) { return value; }
            public short EchoInt16(short value) { return value; }
            public int EchoInt32(int value) { return BreakEchoInt32 ? value + 1 : value; }
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
            public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk) { throw new NotSupportedException("gRPC only"); }
            public void Dispose() { Disposed = true; }
        }

        private static List<Dictionary<string, object>> Run(FakeClient client, params string[] commands)
        {
            var loop = new CommandLoop(IdlFiles.Load(IdlPaths.Directory), () => client);
            var output = new StringWriter();
            loop.Run(new StringReader(string.Join("\n", commands) + "\n"), output);
            return output.ToString().Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries)
                .Select(line => (Dictionary<string, object>)JsonParser.Parse(line)).ToList();
        }

        private static List<Dictionary<string, object>> Results(Dictionary<string, object> answer)
        {
            return ((List<object>)answer["results"]).Cast<Dictionary<string, object>>().ToList();
        }

        [Test]
        public void AnswersEveryCommandOnItsOwnLine()
        {
            var client = new FakeClient();
            var answers = Run(client,
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"vectors\",\"protocol\":\"xmlrpc\"}",
                "{\"cmd\":\"warmup\",\"workload\":\"getItems10\",\"calls\":3}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":5,\"repetitions\":2}",
                "{\"cmd\":\"measure\",\"workload\":\"nope\",\"calls\":1,\"repetitions\":1}",
                "not json",
                "{\"cmd\":\"quit\"}",
                "{\"cmd\":\"connect\"}");
            Assert.AreEqual(7, answers.Count, "nothing is read after quit");
            Assert.IsTrue((bool)answers[0]["ok"]);
            Assert.That(long.Parse(answers[0]["instantiation_ns"].ToString()), Is.GreaterThan(0));

            var results = Results(answers[1]);
            Assert.IsFalse(results.Any(r => (string)r["id"] == "random_doubles_stream_50k"), "gRPC-only vectors are left out");
            Assert.AreEqual("unsupported", results.Single(r => (string)r["id"] == "float64_nan")["status"]);
            Assert.AreEqual("unsupported", results.Single(r => (string)r["id"] == "string_c0_controls")["status"]);
            Assert.IsTrue(results.Where(r => (string)r["status"] != "unsupported").All(r => (string)r["status"] == "pass" && (string)r["reason"] == ""));

            Assert.AreEqual("3", answers[2]["checked"].ToString());
            var samples = (List<object>)answers[3]["samples_ns"];
            Assert.AreEqual(2, samples.Count);
            Assert.AreEqual(5, ((List<object>)samples[0]).Count);
            Assert.IsFalse((bool)answers[4]["ok"]);
            StringAssert.Contains("unknown workload", (string)answers[4]["error"]);
            Assert.IsFalse((bool)answers[5]["ok"]);
            Assert.IsTrue((bool)answers[6]["ok"]);
            Assert.IsTrue(client.Disposed);
        }

        [Test]
        public void WrongAnswersFailWithTheDifference()
        {
            var client = new FakeClient { BreakEchoInt32 = true };
            var answers = Run(client,
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"vectors\",\"protocol\":\"rawtcp\"}",
                "{\"cmd\":\"warmup\",\"workload\":\"echoInt32\",\"calls\":2}");
            var zero = Results(answers[1]).Single(r => (string)r["id"] == "int32_zero");
            Assert.AreEqual("fail", zero["status"]);
            Assert.AreEqual("$: expected 0, actual 1", zero["reason"]);
            Assert.IsFalse(Results(answers[1]).Any(r => (string)r["status"] == "unsupported"), "rawtcp carries everything");
            Assert.IsFalse((bool)answers[2]["ok"]);
            StringAssert.Contains("expected 424242, actual 424243", (string)answers[2]["error"]);
        }

        [Test]
        public void CommandsBeforeConnectAreErrors()
        {
            var answers = Run(new FakeClient(), "{\"cmd\":\"vectors\",\"protocol\":\"rawtcp\"}", "{\"cmd\":\"bogus\"}");
            Assert.IsFalse((bool)answers[0]["ok"]);
            StringAssert.Contains("connect", (string)answers[0]["error"]);
            Assert.IsFalse((bool)answers[1]["ok"]);
        }
    }
}
