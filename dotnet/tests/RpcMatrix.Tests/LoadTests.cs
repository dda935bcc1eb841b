using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.ServiceModel.Channels;
using System.Threading;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;
using RpcMatrix.RawTcp;
using RpcMatrix.Remoting;
using RpcMatrix.Soap;
using RpcMatrix.XmlRpc;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// The load command (runner/PROTOCOL.md#load): closed and open loops, latency from the intended send time, dropped,
    /// late, failed and hung calls counted, bad fields refused; then through the command loop, and each client stack
    /// carrying as many calls at once as connections were asked for. Every test is bounded to a few seconds.
    /// </summary>
    [TestFixture]
    public class LoadTests
    {
        private static long[] Samples(Dictionary<string, object> answer, string name)
        {
            object value = answer[name + "_samples_ns"];
            var direct = value as long[];
            if (direct != null)
            {
                return direct;
            }
            return ((List<object>)value).Select(x => long.Parse(x.ToString())).ToArray(); // parsed back from JSON
        }

        /// <summary>Nearest-rank percentile, as HdrHistogram's getValueAtPercentile reads a sample set.</summary>
        private static long Percentile(long[] samples, double percent)
        {
            Assert.IsNotEmpty(samples);
            long[] sorted = samples.OrderBy(x => x).ToArray();
            int rank = (int)Math.Ceiling(percent / 100.0 * sorted.Length);
            return sorted[Math.Max(0, rank - 1)];
        }

        private static long Number(Dictionary<string, object> answer, string key)
        {
            return Convert.ToInt64(answer[key].ToString().Split('.')[0]);
        }

        private static double Real(Dictionary<string, object> answer, string key)
        {
            return double.Parse(answer[key].ToString(), System.Globalization.CultureInfo.InvariantCulture);
        }

        [Test]
        public void AStallShowsInTheCorrectedLatencyAndNotInTheServiceTime()
        {
            // The check: a server that stalls 200 ms once a second. At 500 calls/s with one call in flight the
            // calls due during a stall wait for it: their latency from the intended send runs up to 200 ms, while the
            // service time of all but the stalled call stays short (what a tool timing from the actual send reports).
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var stalled = new HashSet<long>();
            Action call = () =>
            {
                long second = clock.ElapsedMilliseconds / 1000;
                if (stalled.Add(second))
                {
                    Thread.Sleep(200);
                }
            };
            var answer = Load.Run(new LoadPlan(3000, warmupMs: 100, rate: 500), worker => call);
            Assert.AreEqual("open", answer["mode"]);
            Assert.AreEqual(500.0, answer["offered_per_s"]);
            Assert.That(Percentile(Samples(answer, "latency"), 99), Is.GreaterThanOrEqualTo(150000000L));
            Assert.That(Percentile(Samples(answer, "service"), 99), Is.LessThan(50000000L));
            Assert.That(Number(answer, "late"), Is.GreaterThan(100), "the calls due during three stalls were sent late");
            Assert.AreEqual(0, Number(answer, "errors"));
            Assert.AreEqual(0, Number(answer, "hung"));
            Assert.AreEqual(Number(answer, "calls"), Samples(answer, "latency").Length);
        }

        [Test]
        public void ClosedLoopKeepsEveryWorkerBusyAndTimesFromTheSend()
        {
            int inCall = 0, most = 0;
            Action call = () =>
            {
                int now = Interlocked.Increment(ref inCall);
                int seen;
                while ((seen = most) < now && Interlocked.CompareExchange(ref most, now, seen) != seen)
                {
                }
                Thread.Sleep(2);
                Interlocked.Decrement(ref inCall);
            };
            var answer = Load.Run(new LoadPlan(500, connections: 4, inFlight: 4), worker => call);
            Assert.AreEqual("closed", answer["mode"]);
            Assert.IsFalse(answer.ContainsKey("offered_per_s"));
            Assert.AreEqual(4, most);
            // four workers of 2 ms calls: about 2,000 calls a second (a sleep overshoots, never undershoots)
            Assert.That(Real(answer, "achieved_per_s"), Is.InRange(400.0, 2000.0));
            Assert.AreEqual(Number(answer, "calls"), Samples(answer, "latency").Length);
            Assert.AreEqual(Number(answer, "calls"), Samples(answer, "service").Length);
            Assert.That(Percentile(Samples(answer, "dispatch"), 99), Is.LessThan(1000000L));
            Assert.AreEqual(0, Number(answer, "dropped"));
            var generator = (Dictionary<string, object>)answer["generator"];
            Assert.AreEqual(4, generator["threads"]);
            Assert.AreEqual("samples", generator["histogram"]);
            Assert.AreEqual("Stopwatch", generator["clock"]);
            StringAssert.StartsWith("Mono ", (string)generator["version"]);
            Assert.That(Number(answer, "client_cpu_ns"), Is.GreaterThan(0));
        }

        [Test]
        public void AnUnreachableRateDropsWhatItCouldNotSend()
        {
            // 10 ms calls, one in flight, 1,000 a second asked for half a second: about 50 sent, the rest dropped.
            var answer = Load.Run(new LoadPlan(500, rate: 1000), worker => () => Thread.Sleep(10));
            long calls = Number(answer, "calls"), dropped = Number(answer, "dropped");
            Assert.That(calls, Is.LessThanOrEqualTo(60));
            Assert.That(dropped, Is.GreaterThanOrEqualTo(400));
            Assert.That(calls + dropped, Is.InRange(497, 503));
            Assert.That(Real(answer, "achieved_per_s"), Is.LessThan(0.15 * 1000));
        }

        [Test]
        public void APoissonScheduleIsTheSameForTheSameSeed()
        {
            // Every intended time before the end is either sent (a call) or dropped; the times follow from the seed.
            Func<long> due = () =>
            {
                var answer = Load.Run(new LoadPlan(200, rate: 2000, arrival: LoadPlan.Poisson, seed: 11), worker => () => Thread.Sleep(5));
                Assert.AreEqual("poisson", answer["arrival"]);
                Assert.AreEqual(11L, answer["seed"]);
                return Number(answer, "calls") + Number(answer, "dropped");
            };
            long first = due();
            Assert.That(first, Is.InRange(400 - 100, 400 + 100), "2,000 a second for 200 ms, give or take five sigma");
            Assert.AreEqual(first, due());
        }

        [Test]
        public void FailedCallsAreCountedAndNotTimed()
        {
            int count = 0;
            Action call = () =>
            {
                if (++count % 10 == 0)
                {
                    throw new InvalidOperationException("refused");
                }
            };
            var answer = Load.Run(new LoadPlan(300, rate: 2000, arrival: LoadPlan.Poisson, seed: 3), worker => call);
            Assert.That(Number(answer, "errors"), Is.GreaterThan(0));
            Assert.AreEqual("InvalidOperationException: refused", answer["first_error"]);
            Assert.AreEqual(Number(answer, "calls") - Number(answer, "errors"), Samples(answer, "latency").Length);
            Assert.AreEqual(Math.Round((Number(answer, "calls") - Number(answer, "errors")) / 0.3, 3), Real(answer, "achieved_per_s"), 1e-6);
        }

        [Test]
        public void ACallThatNeverReturnsIsHungAndTheCommandStillAnswers()
        {
            using (var release = new ManualResetEvent(false))
            {
                try
                {
                    var begun = System.Diagnostics.Stopwatch.StartNew();
                    var answer = Load.Run(new LoadPlan(200, timeoutMs: 300), worker => () => release.WaitOne(5000));
                    Assert.That(begun.ElapsedMilliseconds, Is.LessThan(2000));
                    Assert.AreEqual(1, Number(answer, "hung"));
                    Assert.That(Number(answer, "timeouts"), Is.GreaterThanOrEqualTo(1));
                    Assert.AreEqual(0, Number(answer, "calls"), "a call never answered is hung, not a call");
                }
                finally
                {
                    release.Set();
                }
            }
        }

        [TestCase("{\"duration_ms\": 0}", "duration_ms")]
        [TestCase("{}", "duration_ms")]
        [TestCase("{\"duration_ms\": 1e12}", "duration_ms")]
        [TestCase("{\"duration_ms\": 100, \"rate\": -1}", "rate")]
        [TestCase("{\"duration_ms\": 100, \"rate\": \"fast\"}", "rate")]
        [TestCase("{\"duration_ms\": 100, \"arrival\": \"bursty\"}", "arrival")]
        [TestCase("{\"duration_ms\": 100, \"connections\": \"two\"}", "connections")]
        [TestCase("{\"duration_ms\": 100, \"connections\": 0}", "connections")]
        [TestCase("{\"duration_ms\": 100, \"in_flight\": 1.5}", "in_flight")]
        [TestCase("{\"duration_ms\": 100, \"in_flight\": 100000}", "in_flight")]
        [TestCase("{\"duration_ms\": 100, \"warmup_ms\": -5}", "warmup_ms")]
        [TestCase("{\"duration_ms\": 100, \"seed\": 1.5}", "seed")]
        [TestCase("{\"duration_ms\": 100, \"late_ms\": 0}", "late_ms")]
        [TestCase("{\"duration_ms\": 100, \"timeout_ms\": true}", "timeout_ms")]
        public void ABadFieldIsRefusedByName(string fields, string field)
        {
            var command = new Command((Dictionary<string, object>)JsonParser.Parse(fields));
            var e = Assert.Throws<ArgumentException>(() => LoadPlan.Of(command));
            StringAssert.Contains("\"" + field + "\"", e.Message);
        }

        [Test]
        public void AbsentFieldsTakeTheProtocolsDefaults()
        {
            var plan = LoadPlan.Of(new Command((Dictionary<string, object>)JsonParser.Parse("{\"duration_ms\": 100, \"connections\": 3}")));
            Assert.AreEqual(3, plan.InFlight);
            Assert.IsFalse(plan.OpenLoop);
            Assert.AreEqual(0, plan.WarmupMs);
            Assert.AreEqual(LoadPlan.Constant, plan.Arrival);
            Assert.AreEqual(1, plan.LateMs);
            Assert.AreEqual(10000, plan.TimeoutMs);
        }

        /// <summary>An in-process client of the reference behaviour, one call at a time unless told otherwise.</summary>
        private sealed class FakeClient : OperationClient
        {
            private readonly ReferenceBench reference = new ReferenceBench();
            private readonly bool shares;
            public bool Disposed;

            public FakeClient(bool shares)
            {
                this.shares = shares;
            }

            public override bool SharesConnection { get { return shares; } }

            protected override object Call(OperationInfo op, object[] args)
            {
                return op.Invoke(reference, args);
            }

            public override void Dispose() { Disposed = true; }
        }

        private static List<Dictionary<string, object>> Run(CommandLoop loop, params string[] commands)
        {
            var output = new StringWriter();
            loop.Run(new StringReader(string.Join("\n", commands) + "\n"), output);
            return output.ToString().Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries)
                .Select(line => (Dictionary<string, object>)JsonParser.Parse(line)).ToList();
        }

        private static string Error(Dictionary<string, object> answer)
        {
            return answer.ContainsKey("error") ? (string)answer["error"] : "";
        }

        [Test]
        public void AClientWithOneCallPerConnectionRefusesMoreInFlightThanConnections()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            var clients = new List<FakeClient>();
            // remoting-tcp has remote objects: the session workload passes the registry and is refused by load itself
            var loop = new CommandLoop(idl, idl.Registry.Get("remoting-tcp"), () =>
            {
                clients.Add(new FakeClient(false));
                return clients[clients.Count - 1];
            });
            var answers = Run(loop,
                "{\"cmd\":\"load\",\"workload\":\"ping\",\"duration_ms\":50}",
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"load\",\"workload\":\"ping\",\"connections\":2,\"in_flight\":4,\"duration_ms\":50}",
                "{\"cmd\":\"load\",\"workload\":\"ping\",\"connections\":2,\"in_flight\":2,\"duration_ms\":50}",
                "{\"cmd\":\"load\",\"workload\":\"calculatorSession\",\"duration_ms\":50}",
                "{\"cmd\":\"load\",\"workload\":\"nosuch\",\"duration_ms\":50}",
                "{\"cmd\":\"load\",\"workload\":\"ping\",\"duration_ms\":50,\"arrival\":\"bursty\"}");
            Assert.IsFalse((bool)answers[0]["ok"]);
            StringAssert.Contains("connect", Error(answers[0]));
            Assert.IsFalse((bool)answers[2]["ok"]);
            StringAssert.Contains("one call at a time per connection", Error(answers[2]));

            Assert.IsTrue((bool)answers[3]["ok"], Error(answers[3]));
            Assert.That(Number(answers[3], "calls"), Is.GreaterThan(0));
            Assert.AreEqual(2, Number((Dictionary<string, object>)answers[3]["generator"], "threads"));
            Assert.AreEqual(3, clients.Count, "the loop's, then two of the served load's own; the refused ones opened none");
            Assert.IsTrue(clients[1].Disposed && clients[2].Disposed, "closed after the command");
            Assert.AreEqual(Number(answers[3], "calls"), Samples(answers[3], "latency").Length);

            Assert.IsFalse((bool)answers[4]["ok"]);
            StringAssert.Contains("calculatorSession is a session", Error(answers[4]));
            Assert.IsFalse((bool)answers[5]["ok"]);
            StringAssert.Contains("unknown workload", Error(answers[5]));
            Assert.IsFalse((bool)answers[6]["ok"]);
            StringAssert.Contains("\"arrival\"", Error(answers[6]));
            Assert.AreEqual(3, clients.Count);
            Assert.IsTrue(clients[0].Disposed, "the loop's own client closes at the end of input, not before");
        }

        [Test]
        public void AClientWhoseConnectionCarriesConcurrentCallsMayHaveMoreInFlight()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            int created = 0;
            var loop = new CommandLoop(idl, idl.Registry.Get("rawtcp"), () =>
            {
                created++;
                return new FakeClient(true);
            });
            var answers = Run(loop,
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"load\",\"workload\":\"echoInt32\",\"connections\":1,\"in_flight\":3,\"duration_ms\":50,\"rate\":1000}");
            Assert.IsTrue((bool)answers[1]["ok"], Error(answers[1]));
            Assert.AreEqual(3, Number((Dictionary<string, object>)answers[1]["generator"], "threads"));
            Assert.AreEqual(2, created);
        }

        /// <summary>A server's bench that notes how many calls it serves at once, each held 20 ms.</summary>
        public sealed class ConcurrencyBench : ForwardingBench
        {
            private readonly ReferenceBench reference = new ReferenceBench();
            private int now;
            private int most;

            public int Most { get { return Volatile.Read(ref most); } }

            protected override IBench Next()
            {
                int current = Interlocked.Increment(ref now);
                int seen;
                while ((seen = most) < current && Interlocked.CompareExchange(ref most, current, seen) != seen)
                {
                }
                Thread.Sleep(20);
                Interlocked.Decrement(ref now);
                return reference;
            }
        }

        private int savedWorkers, savedPorts;

        /// <summary>
        /// The servers below run in this process and serve on its thread pool, where the HTTP client's completions run
        /// too, and the bench holds each call 20 ms: at Mono's minimum of one worker per CPU the pool starves, and grows
        /// by a thread every half second (the launcher's processes have a client or a server, never both).
        /// </summary>
        [SetUp]
        public void RaiseThreadPoolMinimum()
        {
            ThreadPool.GetMinThreads(out savedWorkers, out savedPorts);
            ThreadPool.SetMinThreads(Math.Max(savedWorkers, 16), Math.Max(savedPorts, 16));
        }

        [TearDown]
        public void RestoreThreadPoolMinimum()
        {
            ThreadPool.SetMinThreads(savedWorkers, savedPorts);
        }

        /// <summary>Lines for the command loop, with checks run between them (when the loop asks for the next line).</summary>
        private sealed class ScriptedInput : TextReader
        {
            private readonly Queue<object> script;

            public ScriptedInput(params object[] script)
            {
                this.script = new Queue<object>(script);
            }

            public override string ReadLine()
            {
                while (script.Count > 0)
                {
                    object next = script.Dequeue();
                    var check = next as Action;
                    if (check == null)
                    {
                        return (string)next;
                    }
                    check();
                }
                return null;
            }
        }

        /// <summary>This process's TCP connections to <paramref name="port"/> that are established, from /proc/net/tcp{,6}.</summary>
        private static int EstablishedTo(int port)
        {
            int count = 0;
            foreach (string table in new[] { "/proc/net/tcp", "/proc/net/tcp6" })
            {
                if (!File.Exists(table))
                {
                    continue;
                }
                foreach (string line in File.ReadAllLines(table).Skip(1))
                {
                    string[] fields = line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
                    string remote = fields[2];
                    int remotePort = Convert.ToInt32(remote.Substring(remote.IndexOf(':') + 1), 16);
                    if (remotePort == port && fields[3] == "01")
                    {
                        count++;
                    }
                }
            }
            return count;
        }

        /// <summary>The count of established connections to the port once it is <paramref name="expected"/>, or after 2 s.</summary>
        private static int SettlesAt(int port, int expected)
        {
            var waited = System.Diagnostics.Stopwatch.StartNew();
            int count;
            while ((count = EstablishedTo(port)) != expected && waited.ElapsedMilliseconds < 2000)
            {
                Thread.Sleep(20);
            }
            return count;
        }

        /// <summary>
        /// Through the command loop: connect, then a closed loop of pings over three connections, in_flight 4 refused,
        /// and a warm-up on the loop's own connection. Returns the load's answer and the connections to the server
        /// established right after it (<paramref name="expectedAfter"/>: what the stack is expected to leave open).
        /// </summary>
        private static Dictionary<string, object> LoadOverThreeConnections(string protocol, Func<IBenchClient> connect, int port,
            int expectedAfter, out int establishedAfter)
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            var loop = new CommandLoop(idl, idl.Registry.Get(protocol), connect);
            var output = new StringWriter();
            int after = -1;
            loop.Run(new ScriptedInput(
                "{\"cmd\":\"connect\"}",
                "{\"cmd\":\"load\",\"workload\":\"ping\",\"connections\":3,\"in_flight\":3,\"duration_ms\":300,\"warmup_ms\":300}",
                (Action)(() => after = SettlesAt(port, expectedAfter)),
                "{\"cmd\":\"load\",\"workload\":\"ping\",\"connections\":3,\"in_flight\":4,\"duration_ms\":50}",
                "{\"cmd\":\"warmup\",\"workload\":\"getItems10\",\"calls\":3}"), output);
            var answers = output.ToString().Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries)
                .Select(line => (Dictionary<string, object>)JsonParser.Parse(line)).ToList();
            establishedAfter = after;
            Assert.IsTrue((bool)answers[0]["ok"], Error(answers[0]));
            Assert.IsTrue((bool)answers[1]["ok"], Error(answers[1]));
            Assert.AreEqual(0, Number(answers[1], "errors"), answers[1].ContainsKey("first_error") ? (string)answers[1]["first_error"] : "");
            // a new client's first calls are slow (compiled then; WCF's most): a warm-up of 300 ms, and of the window
            // no more than calls asked, the machine may be busy
            Assert.That(Number(answers[1], "calls"), Is.GreaterThan(0));
            Assert.AreEqual(Number(answers[1], "calls"), Samples(answers[1], "latency").Length);
            Assert.That(Percentile(Samples(answers[1], "service"), 50), Is.GreaterThanOrEqualTo(20000000L), "the server holds each call 20 ms");
            Assert.IsFalse((bool)answers[2]["ok"], "every stack of this language makes one call at a time per connection");
            StringAssert.Contains("one call at a time per connection", Error(answers[2]));
            Assert.IsTrue((bool)answers[3]["ok"], "the loop's own client still answers: " + Error(answers[3]));
            return answers[1];
        }

        [Test]
        public void RawTcpCarriesOneCallPerConnectionEndToEnd()
        {
            var bench = new ConcurrencyBench();
            var server = new RawTcpServer(bench);
            int port = server.Start(IPAddress.Loopback, 0);
            try
            {
                int after;
                LoadOverThreeConnections("rawtcp", () => new RawTcpClient("127.0.0.1", port), port, 1, out after);
                Assert.AreEqual(3, bench.Most, "three connections, three calls at once");
                Assert.AreEqual(1, after, "the load's connections closed, the loop's kept");
                Assert.AreEqual(0, SettlesAt(port, 0), "the loop's closed at the end of its input");
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void XmlRpcClientsEachHaveConnectionsOfTheirOwn()
        {
            var bench = new ConcurrencyBench();
            var server = new XmlRpcServer(bench, false);
            int port = server.Start(IPAddress.Loopback, 0);
            try
            {
                int after;
                LoadOverThreeConnections("xmlrpc", () => new XmlRpcClient("127.0.0.1", port, false), port, 1, out after);
                Assert.AreEqual(3, bench.Most, "three connections, three calls at once");
                Assert.AreEqual(1, after, "the load's connection groups closed, the loop's kept");
                Assert.AreEqual(0, SettlesAt(port, 0), "the loop's closed at the end of its input");
                using (var a = new XmlRpcClient("127.0.0.1", port, false))
                using (var b = new XmlRpcClient("127.0.0.1", port, false))
                {
                    a.Ping();
                    b.Ping();
                    Assert.AreEqual(2, SettlesAt(port, 2));
                    b.Dispose();
                    Assert.AreEqual(1, SettlesAt(port, 1), "closing a client closes its own connection only");
                    a.Ping();
                }
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void SoapClientsRaiseTheServicePointsLimitToOneConnectionEach()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            Binding binding = SoapBindings.For(idl.Registry.Get("soap11"));
            var bench = new ConcurrencyBench();
            var server = new SoapServer(binding, new SoapDispatcher(bench, binding.MessageVersion));
            int port = server.Start(IPAddress.Loopback, 0);
            try
            {
                // Mono's default limit is 2 connections per ServicePoint: without the raise, one worker would queue.
                int after;
                LoadOverThreeConnections("soap11", () => new SoapClient(SoapBindings.For(idl.Registry.Get("soap11")), "127.0.0.1", port),
                    port, 0, out after);
                Assert.AreEqual(3, bench.Most, "three connections, three calls at once");
                Assert.AreEqual(0, after, "closing the load's clients closed the pool's connections, the loop's idle one too");
            }
            finally
            {
                server.Stop();
            }
        }

        /// <summary>A Remoting server in an application domain of its own (RemotingTests says why), with a ConcurrencyBench.</summary>
        public sealed class RemotingHost : MarshalByRefObject
        {
            private RemotingServer server;
            private ConcurrencyBench bench;

            public int Start()
            {
                bench = new ConcurrencyBench();
                server = new RemotingServer(bench);
                return server.Start(IPAddress.Loopback, 0);
            }

            public int Most { get { return bench.Most; } }

            public void Stop()
            {
                server.Stop();
            }
        }

        [Test]
        public void RemotingsPoolLendsEachConcurrentCallAConnection()
        {
            AppDomain domain = AppDomain.CreateDomain("load-remoting-server", null, AppDomain.CurrentDomain.SetupInformation);
            try
            {
                var host = (RemotingHost)domain.CreateInstanceAndUnwrap(typeof(RemotingHost).Assembly.FullName, typeof(RemotingHost).FullName);
                int port = CleanCallContext.Run(() => host.Start());
                try
                {
                    int after = -1;
                    CleanCallContext.Run(() => LoadOverThreeConnections("remoting-tcp", () => new RemotingClient("127.0.0.1", port), port, 3, out after));
                    Assert.AreEqual(3, CleanCallContext.Run(() => host.Most), "three connections, three calls at once");
                    Assert.That(after, Is.InRange(1, 3), "Mono's pool keeps its connections 15 s: one per call that was in flight at once");
                }
                finally
                {
                    CleanCallContext.Run(() => { host.Stop(); return 0; });
                }
            }
            finally
            {
                AppDomain.Unload(domain);
            }
        }
    }
}
