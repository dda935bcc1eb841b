using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class CommandLoopTests
    {
        /// <summary>An in-process client: the reference behaviour, optionally corrupting one operation.</summary>
        private class FakeClient : OperationClient
        {
            private readonly ReferenceBench reference = new ReferenceBench();
            public bool BreakEchoInt32;
            public bool Disposed;
            public int Calls;

            protected override object Call(OperationInfo op, object[] args)
            {
                if (op == Operations.Ping)
                {
                    Calls++;
                }
                object result = op.Invoke(reference, args);
                return BreakEchoInt32 && op == Operations.EchoInt32 ? (int)result + 1 : result;
            }

            public override void Dispose() { Disposed = true; }
        }

        private static int connects;

        private static List<Dictionary<string, object>> Run(FakeClient client, string protocol, params string[] commands)
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            return Answers(new CommandLoop(idl, idl.Registry.Get(protocol), () => { connects++; return client; }), commands);
        }

        /// <summary>The loop's answers to the commands, one parsed line each.</summary>
        private static List<Dictionary<string, object>> Answers(CommandLoop loop, params string[] commands)
        {
            var output = new StringWriter();
            loop.Run(new StringReader(string.Join("\n", commands) + "\n"), output);
            return output.ToString().Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries)
                .Select(line => (Dictionary<string, object>)JsonParser.Parse(line)).ToList();
        }

        private static List<Dictionary<string, object>> Results(Dictionary<string, object> answer)
        {
            return ((List<object>)answer["results"]).Cast<Dictionary<string, object>>().ToList();
        }

        private static List<List<long>> SampleLists(Dictionary<string, object> answer)
        {
            return ((List<object>)answer["samples_ns"])
                .Select(list => ((List<object>)list).Select(x => long.Parse(x.ToString())).ToList()).ToList();
        }

        private static long Number(Dictionary<string, object> answer, string key)
        {
            return long.Parse(answer[key].ToString());
        }

        /// <summary>A command loop of the protocol whose every client is a new T, noted in <paramref name="made"/>.</summary>
        private static CommandLoop LoopMaking<T>(string protocol, List<T> made) where T : FakeClient, new()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            return new CommandLoop(idl, idl.Registry.Get(protocol), () => { var c = new T(); made.Add(c); return c; });
        }

        [Test]
        public void AConnectionPerCallMakesEachWorkloadCallOnAClientOfItsOwn()
        {
            var made = new List<FakeClient>();
            var loop = LoopMaking("xmlrpc", made);
            var answers = Answers(loop,
                "{\"cmd\":\"connect\",\"connection\":\"per-call\"}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":4}",
                "{\"cmd\":\"warmup\",\"workload\":\"getItems10\",\"calls\":2}");
            Assert.AreEqual("per-call", answers[0]["connection"]);
            Assert.AreEqual(4, Number(answers[1], "calls"));
            Assert.AreEqual(2, Number(answers[2], "checked"));
            // connect's own client (its ping), then one client per call, each disposed after it
            Assert.AreEqual(1 + 4 + 2, made.Count);
            Assert.AreEqual(1, made[0].Calls, "connect's client made its ping only");
            Assert.IsTrue(made.Skip(1).All(c => c.Disposed));
            Assert.AreEqual(4, made.Skip(1).Take(4).Sum(c => c.Calls), "a ping per client");
        }

        private sealed class ClosingClient : FakeClient, IClosesEachConnection
        {
            public int Asked;

            public void CloseEachConnection()
            {
                Asked++;
            }
        }

        [Test]
        public void AConnectionPerCallKeepsAClientThatClosesEachConnectionItself()
        {
            var made = new List<ClosingClient>();
            var loop = LoopMaking("soap11", made);
            var answers = Answers(loop,
                "{\"cmd\":\"connect\",\"connection\":\"per-call\"}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":4}");
            Assert.AreEqual("per-call", answers[0]["connection"]);
            Assert.AreEqual(4, Number(answers[1], "calls"));
            // the connect's client made every call, told once to close each connection
            Assert.AreEqual(1, made.Count);
            Assert.AreEqual(1, made[0].Asked);
            Assert.AreEqual(1 + 4, made[0].Calls);
        }

        [Test]
        public void HttpProxyIsReadAsCurlReadsIt()
        {
            Assert.IsNull(RpcMatrix.Core.Http.HttpPostClient.ProxyOf(null));
            var proxy = (System.Net.WebProxy)RpcMatrix.Core.Http.HttpPostClient.ProxyOf("198.18.0.5:8888");
            Assert.AreEqual(new Uri("http://198.18.0.5:8888/"), proxy.Address);
            Assert.IsFalse(proxy.BypassProxyOnLocal);
            Assert.IsFalse(proxy.IsBypassed(new Uri("http://198.18.0.6:9000/RPC2")));
        }

        [Test]
        public void AnswersEveryCommandOnItsOwnLine()
        {
            var client = new FakeClient();
            var answers = Run(client, "xmlrpc",
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"vectors\",\"protocol\":\"xmlrpc\"}",
                "{\"cmd\":\"warmup\",\"workload\":\"getItems10\",\"calls\":3}",
                "{\"cmd\":\"measure\",\"workload\":\"nope\",\"calls\":1}",
                "not json",
                "{\"cmd\":\"quit\"}",
                "{\"cmd\":\"connect\"}");
            Assert.AreEqual(6, answers.Count, "nothing is read after quit");
            Assert.IsTrue((bool)answers[0]["ok"]);
            Assert.That(Number(answers[0], "instantiation_ns"), Is.GreaterThanOrEqualTo(0));

            var results = Results(answers[1]);
            Assert.AreEqual(IdlFiles.Load(IdlPaths.Directory).Vectors.Count, results.Count, "every vector, in file order");
            Assert.AreEqual("XML-RPC answers a call with exactly one methodResponse",
                results.Single(r => (string)r["id"] == "random_doubles_stream_50k")["reason"], "the operation's needs count");
            Assert.AreEqual("unsupported", results.Single(r => (string)r["id"] == "float64_nan")["status"]);
            Assert.AreEqual("unsupported", results.Single(r => (string)r["id"] == "string_c0_controls")["status"]);
            Assert.IsTrue(results.Where(r => (string)r["status"] != "unsupported").All(r => (string)r["status"] == "pass" && (string)r["reason"] == ""));

            Assert.AreEqual(3, Number(answers[2], "checked"));
            Assert.IsFalse((bool)answers[3]["ok"]);
            StringAssert.Contains("unknown workload", (string)answers[3]["error"]);
            Assert.IsFalse((bool)answers[4]["ok"]);
            Assert.IsTrue((bool)answers[5]["ok"]);
            Assert.IsTrue(client.Disposed);
        }

        [Test]
        public void MeasureMakesOneRepetitionAndSamplesHandOverTheBuffer()
        {
            var client = new FakeClient();
            var answers = Run(client, "rawtcp",
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"prepare\",\"workload\":\"ping\"}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":5}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":7}",
                "{\"cmd\":\"samples\",\"workload\":\"ping\"}",
                "{\"cmd\":\"samples\",\"workload\":\"ping\"}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":2}",
                "{\"cmd\":\"prepare\",\"workload\":\"ping\"}",
                "{\"cmd\":\"samples\",\"workload\":\"ping\"}");
            Assert.IsTrue(answers.All(a => (bool)a["ok"]));
            Assert.AreEqual(new[] { "ok" }, answers[1].Keys.ToArray(), "prepare answers nothing else");
            Assert.AreEqual(new[] { "ok", "calls" }, answers[2].Keys.ToArray(), "measure answers only the count");
            Assert.AreEqual(5, Number(answers[2], "calls"));
            Assert.AreEqual(7, Number(answers[3], "calls"));
            var lists = SampleLists(answers[4]);
            Assert.AreEqual(new[] { 5, 7 }, lists.Select(l => l.Count).ToArray(), "one list per measure, in order");
            Assert.IsTrue(lists.SelectMany(l => l).All(ns => ns >= 0));
            Assert.IsEmpty(SampleLists(answers[5]), "samples empties the buffer");
            Assert.IsEmpty(SampleLists(answers[8]), "prepare empties the buffer");
            Assert.AreEqual(1 + 5 + 7 + 2, client.Calls, "connect's ping and every measured call, nothing else");
        }

        [Test]
        public void MeasureKeepsCallingUntilMinMsButNeverPastMaxCalls()
        {
            var answers = Run(new FakeClient(), "rawtcp",
                "{\"cmd\":\"connect\"}",
                // ping never takes an hour: max_calls ends the repetition.
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":3,\"min_ms\":3600000,\"max_calls\":50}",
                // min_ms of 0: exactly calls.
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":3,\"min_ms\":0,\"max_calls\":50}",
                // 20 ms of in-process pings is far more than 3 calls on any machine.
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":3,\"min_ms\":20,\"max_calls\":100000000}",
                "{\"cmd\":\"samples\",\"workload\":\"ping\"}");
            Assert.AreEqual(50, Number(answers[1], "calls"));
            Assert.AreEqual(3, Number(answers[2], "calls"));
            Assert.That(Number(answers[3], "calls"), Is.GreaterThan(3));
            var lists = SampleLists(answers[4]);
            Assert.AreEqual(Number(answers[3], "calls"), lists[2].Count);
            Assert.That(lists[2].Sum(), Is.LessThan(lists[2].Count * 1000000000L));
        }

        [Test]
        public void HandlerTimesTheReferenceBehaviourWithoutConnecting()
        {
            connects = 0;
            var client = new FakeClient();
            var answers = Run(client, "xmlrpc",
                "{\"cmd\":\"handler\",\"workload\":\"getItems10\",\"calls\":4,\"repetitions\":3}",
                "{\"cmd\":\"handler\",\"workload\":\"ping\",\"calls\":2,\"min_ms\":0,\"max_calls\":9}",
                // The stream workload's reference behaviour runs in process even where the protocol lacks streaming.
                "{\"cmd\":\"handler\",\"workload\":\"randomDoublesStream50k\",\"calls\":1}");
            Assert.IsTrue(answers.All(a => (bool)a["ok"]), string.Join(" ", answers.Select(a => a.ContainsKey("error") ? a["error"] : "")));
            Assert.AreEqual(new[] { 4, 4, 4 }, SampleLists(answers[0]).Select(l => l.Count).ToArray());
            Assert.AreEqual(new[] { 2 }, SampleLists(answers[1]).Select(l => l.Count).ToArray());
            Assert.AreEqual(1, SampleLists(answers[2]).Single().Count);
            Assert.AreEqual(0, connects, "handler needs no connection");
            Assert.AreEqual(0, client.Calls);
        }

        [Test]
        public void WarmupUntilSteadyMakesAtLeastThreeBatchesAndReportsTheirMedians()
        {
            var answers = Run(new FakeClient(), "rawtcp",
                "{\"cmd\":\"connect\"}",
                // A tolerance of 1e9 is met by any three batches: steady after exactly three.
                "{\"cmd\":\"warmup\",\"workload\":\"getItems10\",\"calls\":4,\"until_steady\":{\"tolerance\":1e9,\"max_ms\":600000}}",
                // A negative tolerance is never met: max_ms ends it, unsteady.
                "{\"cmd\":\"warmup\",\"workload\":\"ping\",\"calls\":2,\"until_steady\":{\"tolerance\":-1,\"max_ms\":30}}");
            Assert.IsTrue((bool)answers[1]["ok"], answers[1].ContainsKey("error") ? (string)answers[1]["error"] : "");
            Assert.AreEqual(3, Number(answers[1], "batches"));
            Assert.AreEqual(12, Number(answers[1], "checked"));
            Assert.IsTrue((bool)answers[1]["steady"]);
            Assert.AreEqual(3, ((List<object>)answers[1]["batch_medians_ns"]).Count);
            Assert.That(Number(answers[1], "elapsed_ms"), Is.GreaterThanOrEqualTo(0));
            Assert.IsFalse((bool)answers[2]["steady"]);
            Assert.That(Number(answers[2], "elapsed_ms"), Is.GreaterThanOrEqualTo(30));
            Assert.AreEqual(Number(answers[2], "batches") * 2, Number(answers[2], "checked"));
        }

        [Test]
        public void WorkloadsNeedingWhatTheProtocolLacksAreRefusedWithTheReason()
        {
            var answers = Run(new FakeClient(), "xmlrpc",
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"warmup\",\"workload\":\"randomDoublesStream50k\",\"calls\":1}");
            Assert.IsFalse((bool)answers[1]["ok"]);
            StringAssert.Contains("XML-RPC answers a call with exactly one methodResponse", (string)answers[1]["error"]);
        }

        [Test]
        public void WrongAnswersFailWithTheDifference()
        {
            var client = new FakeClient { BreakEchoInt32 = true };
            var answers = Run(client, "rawtcp",
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"vectors\",\"protocol\":\"rawtcp\"}",
                "{\"cmd\":\"warmup\",\"workload\":\"echoInt32\",\"calls\":2}",
                "{\"cmd\":\"warmup\",\"workload\":\"echoInt32\",\"calls\":2,\"until_steady\":{\"tolerance\":0.1,\"max_ms\":100}}");
            var zero = Results(answers[1]).Single(r => (string)r["id"] == "int32_zero");
            Assert.AreEqual("fail", zero["status"]);
            Assert.AreEqual("$: expected 0, actual 1", zero["reason"]);
            var unsupported = Results(answers[1]).Where(r => (string)r["status"] == "unsupported").Select(r => (string)r["id"]).ToArray();
            // rawtcp lacks server streaming, remote references and every security capability.
            var idl = IdlFiles.Load(IdlPaths.Directory);
            var expected = idl.Vectors.Where(v => v.Session != null || v.Attack != null || v.Op == "randomDoublesStream").Select(v => v.Id).ToArray();
            CollectionAssert.AreEquivalent(expected, unsupported);
            Assert.IsFalse((bool)answers[2]["ok"]);
            StringAssert.Contains("expected 424242, actual 424243", (string)answers[2]["error"]);
            Assert.IsFalse((bool)answers[3]["ok"]);
        }

        [Test]
        public void ConnectGoesToTheHostAndPortItNamesAndClosesTheEarlierConnection()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            var targets = new List<string>();
            string host = "127.0.0.1";
            int port = 9;
            var clients = new List<FakeClient>();
            var loop = new CommandLoop(idl, idl.Registry.Get("rawtcp"), () =>
            {
                targets.Add(host + ":" + port);
                clients.Add(new FakeClient());
                return clients[clients.Count - 1];
            });
            loop.Retarget = (newHost, newPort) => { host = newHost ?? host; port = newPort; };
            var answers = Answers(loop,
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"connect\",\"host\":\"198.18.0.2\",\"port\":4242}",
                "{\"cmd\":\"connect\",\"port\":70000}");
            Assert.IsTrue((bool)answers[0]["ok"]);
            Assert.IsTrue((bool)answers[1]["ok"]);
            Assert.IsFalse((bool)answers[2]["ok"]);
            Assert.AreEqual(new[] { "127.0.0.1:9", "198.18.0.2:4242" }, targets.ToArray());
            Assert.IsTrue(clients[0].Disposed, "the earlier connection is closed before the next");
        }

        [Test]
        public void CommandsNeedingAConnectionFailBeforeConnect()
        {
            var answers = Run(new FakeClient(), "rawtcp",
                "{\"cmd\":\"vectors\",\"protocol\":\"rawtcp\"}",
                "{\"cmd\":\"measure\",\"workload\":\"ping\",\"calls\":1}",
                "{\"cmd\":\"vectors\",\"protocol\":\"nosuch\"}",
                "{\"cmd\":\"bogus\"}");
            Assert.IsFalse((bool)answers[0]["ok"]);
            StringAssert.Contains("connect", (string)answers[0]["error"]);
            Assert.IsFalse((bool)answers[1]["ok"]);
            StringAssert.Contains("protocol 'nosuch' is not in idl/protocols.json", (string)answers[2]["error"]);
            Assert.IsFalse((bool)answers[3]["ok"]);
        }
    }
}
