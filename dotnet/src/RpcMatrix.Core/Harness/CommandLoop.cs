using System;
using System.Collections.Generic;
using System.IO;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// The client side of runner/PROTOCOL.md: one JSON command per input line, exactly one JSON answer line each.
    /// Every protocol's client runs this loop; a protocol supplies only the IBenchClient it creates.
    /// </summary>
    public sealed class CommandLoop
    {
        private readonly IdlFiles idl;
        private readonly Protocol protocol;
        private readonly Func<IBenchClient> connect;
        private readonly ReferenceBench reference = new ReferenceBench();
        private readonly Dictionary<string, PreparedWorkload> prepared = new Dictionary<string, PreparedWorkload>();
        private IBenchClient client;
        // connect's "connection": "per-call" (runner/PROTOCOL.md): each workload call on a new connection
        private bool perCall;
        // the connected client was told to close each connection itself (IClosesEachConnection, at its first workload)
        private bool closingEach;

        public CommandLoop(IdlFiles idl, Protocol protocol, Func<IBenchClient> connect)
        {
            this.idl = idl;
            this.protocol = protocol;
            this.connect = connect;
        }

        /// <summary>
        /// Points the next connect at another server (host or null for the same, port): the runner keeps one
        /// client process for every server of a protocol in a pass, each on its own port.
        /// </summary>
        public Action<string, int> Retarget { get; set; }

        public void Run(TextReader input, TextWriter output)
        {
            try
            {
                string line;
                while ((line = input.ReadLine()) != null)
                {
                    if (line.Trim().Length == 0)
                    {
                        continue;
                    }
                    bool quit;
                    output.Write(JsonWriter.Write(Answer(line, out quit)) + "\n");
                    output.Flush();
                    if (quit)
                    {
                        return;
                    }
                }
            }
            finally
            {
                Disconnect();
            }
        }

        private Dictionary<string, object> Answer(string line, out bool quit)
        {
            quit = false;
            try
            {
                var members = JsonParser.Parse(line) as Dictionary<string, object>;
                var command = new Command(members ?? new Dictionary<string, object>());
                switch (command.Name)
                {
                    case "connect": return Connect(command);
                    case "vectors": return Vectors(command);
                    case "prepare": return Prepare(command);
                    case "warmup": return command.Has("until_steady") ? WarmupUntilSteady(command) : Warmup(command);
                    case "measure": return Measure(command);
                    case "samples": return Samples(command);
                    case "handler": return Handler(command);
                    case "metadata": return Metadata();
                    case "load": return LoadCommand(command);
                    case "quit":
                        quit = true;
                        Disconnect();
                        return Ok();
                    default: return Failure("unknown command: " + line.Trim());
                }
            }
            catch (Exception e)
            {
                return Failure(Messages.Of(e));
            }
        }

        private Dictionary<string, object> Connect(Command command)
        {
            // the earlier server may be gone: closing its connection is best effort
            try
            {
                Disconnect();
            }
            catch (Exception e)
            {
                client = null;
                Console.Error.WriteLine("closing the earlier connection: " + Messages.Of(e));
            }
            if (command.Has("host") || command.Has("port"))
            {
                if (Retarget == null)
                {
                    throw new ArgumentException("this client cannot be pointed at another server");
                }
                int port = command.Count("port");
                if (port < 1 || port > 65535)
                {
                    throw new ArgumentException("\"port\" must be 1 to 65535, got " + port);
                }
                Retarget(command.Has("host") ? command.Text("host") : null, port);
            }
            long start = MonotonicClock.Now();
            IBenchClient created = connect();
            try
            {
                created.Ping();
            }
            catch
            {
                created.Dispose();
                throw;
            }
            long end = MonotonicClock.Now();
            client = created;
            var answer = Ok();
            answer["instantiation_ns"] = MonotonicClock.ElapsedNanoseconds(start, end);
            answer["facts"] = RuntimeFacts.Collect();
            perCall = command.Has("connection") && command.Text("connection") == "per-call";
            if (perCall)
            {
                answer["connection"] = "per-call";
            }
            closingEach = false;
            return answer;
        }

        private Dictionary<string, object> Metadata()
        {
            var checker = Connected() as IMetadataClient;
            if (checker == null)
            {
                return Failure("this client cannot check the metadata " + protocol.Name + " servers publish");
            }
            string reason;
            var answer = Ok();
            answer["consumable"] = checker.PublishedMetadata(out reason);
            answer["reason"] = reason;
            return answer;
        }

        private Dictionary<string, object> Vectors(Command command)
        {
            Protocol target = command.Has("protocol") ? idl.Registry.Get(command.Text("protocol")) : protocol;
            var results = new List<object>();
            foreach (VectorResult result in new VectorRunner(idl, reference).Run(Connected(), target))
            {
                results.Add(result.ToJson());
            }
            var answer = Ok();
            answer["results"] = results;
            return answer;
        }

        private Dictionary<string, object> Prepare(Command command)
        {
            PreparedWorkload workload = Workload(command);
            workload.Samples.Clear();
            return Ok();
        }

        private Dictionary<string, object> Warmup(Command command)
        {
            PreparedWorkload workload = Remote(command);
            int calls = command.Count("calls");
            IBench remote = Connected();
            Func<IBench, object> call = CallOf(workload);
            for (int i = 0; i < calls; i++)
            {
                string difference = Check(workload, call(remote));
                if (difference != null)
                {
                    return Failure("warm-up call " + (i + 1) + " of " + workload.Workload.Name + ": " + difference);
                }
            }
            var answer = Ok();
            answer["checked"] = calls;
            return answer;
        }

        private Dictionary<string, object> WarmupUntilSteady(Command command)
        {
            PreparedWorkload workload = Remote(command);
            int calls = command.Count("calls");
            Command steady = command.Member("until_steady") ?? new Command(new Dictionary<string, object>());
            double tolerance = steady.Number("tolerance", 0.1);
            long maxMs = (long)steady.Number("max_ms", 4000);
            IBench remote = Connected();
            Func<IBench, object> call = CallOf(workload);
            var medians = new List<long>();
            var batch = new long[calls];
            long begin = MonotonicClock.Now();
            int checkedCalls = 0;
            bool isSteady = false;
            while (calls > 0)
            {
                for (int i = 0; i < calls; i++)
                {
                    long start = MonotonicClock.Now();
                    object actual = call(remote);
                    batch[i] = MonotonicClock.ElapsedNanoseconds(start, MonotonicClock.Now());
                    string difference = Check(workload, actual);
                    if (difference != null)
                    {
                        return Failure("warm-up call " + (checkedCalls + 1) + " of " + workload.Workload.Name + ": " + difference);
                    }
                    checkedCalls++;
                }
                medians.Add(Repetition.Median(batch));
                isSteady = Repetition.Steady(medians, tolerance);
                if (isSteady || MonotonicClock.ElapsedMilliseconds(begin, MonotonicClock.Now()) >= maxMs)
                {
                    break;
                }
            }
            var answer = Ok();
            answer["checked"] = checkedCalls;
            answer["batches"] = medians.Count;
            answer["steady"] = isSteady;
            answer["elapsed_ms"] = MonotonicClock.ElapsedMilliseconds(begin, MonotonicClock.Now());
            answer["batch_medians_ns"] = medians;
            return answer;
        }

        private Dictionary<string, object> Measure(Command command)
        {
            PreparedWorkload workload = Remote(command);
            int calls = command.Count("calls");
            IBench remote = Connected();
            workload.Samples.Add(Repetition.Measure(CallOf(workload), remote, calls,
                command.Count("min_ms", 0), command.Count("max_calls", calls)));
            var answer = Ok();
            answer["calls"] = workload.Samples[workload.Samples.Count - 1].Count;
            return answer;
        }

        /// <summary>
        /// The workload's call on the connected client, or with a connection per call one made on a client made anew,
        /// called once and disposed, all inside the timed call (the handshake timed where a client that connects per
        /// call pays it), as Python's PerCallDriver does; or the connected client where it closes each connection
        /// itself (IClosesEachConnection).
        /// </summary>
        private Func<IBench, object> CallOf(PreparedWorkload workload)
        {
            if (!perCall)
            {
                return workload.Call;
            }
            if (workload.Operation == null)
            {
                throw new ArgumentException(workload.Workload.Name + ": a session's calls share their remote objects' connection: no connection per call");
            }
            var closing = client as IClosesEachConnection;
            if (closing != null)
            {
                if (!closingEach) // the vectors kept the connect's connection; the workloads do not
                {
                    closing.CloseEachConnection();
                    closingEach = true;
                }
                return workload.Call;
            }
            return ignored =>
            {
                using (IBenchClient fresh = connect())
                {
                    return workload.Call(fresh);
                }
            };
        }

        private Dictionary<string, object> Samples(Command command)
        {
            PreparedWorkload workload = Workload(command);
            var handed = new List<ArraySegment<long>>(workload.Samples);
            workload.Samples.Clear();
            var answer = Ok();
            answer["samples_ns"] = handed;
            return answer;
        }

        /// <summary>The reference behaviour in process, no transport: what the handler alone costs.</summary>
        private Dictionary<string, object> Handler(Command command)
        {
            PreparedWorkload workload = Workload(command);
            int calls = command.Count("calls");
            int minMs = command.Count("min_ms", 0);
            int maxCalls = command.Count("max_calls", calls);
            int repetitions = command.Count("repetitions", 1);
            var samples = new List<ArraySegment<long>>(repetitions);
            for (int r = 0; r < repetitions; r++)
            {
                samples.Add(Repetition.Measure(workload.Call, reference, calls, minMs, maxCalls));
            }
            var answer = Ok();
            answer["samples_ns"] = samples;
            return answer;
        }

        /// <summary>
        /// Many calls in flight (Load, runner/PROTOCOL.md#load) over <c>connections</c> clients of their own to the server
        /// the loop is connected to, closed after the command; the loop's own client stays as it was. Every client of this
        /// language makes one call at a time per connection (IBenchClient.SharesConnection), so in_flight &gt; connections
        /// is refused before anything is opened.
        /// </summary>
        private Dictionary<string, object> LoadCommand(Command command)
        {
            long cpuBefore = NativeClock.ProcessCpuNanoseconds();
            PreparedWorkload workload = Remote(command);
            if (workload.Operation == null)
            {
                throw new ArgumentException("load: " + workload.Workload.Name + " is a session; load takes one operation per call");
            }
            Connected();
            LoadPlan plan = LoadPlan.Of(command);
            if (plan.InFlight > plan.Connections && !client.SharesConnection)
            {
                throw new ArgumentException("load: this client makes one call at a time per connection: in_flight " + plan.InFlight
                    + " needs as many connections (asked " + plan.Connections + ")");
            }
            var opened = new List<IBenchClient>(plan.Connections);
            Dictionary<string, object> run;
            try
            {
                // each opened and used once before the load (PROTOCOL.md#load), as Connect does
                for (int c = 0; c < plan.Connections; c++)
                {
                    opened.Add(connect());
                    opened[c].Ping();
                }
                IBench[] targets = opened.ToArray();
                Func<IBench, object> call = workload.Call;
                run = Load.Run(plan, worker =>
                {
                    IBench target = targets[worker % targets.Length];
                    return () => call(target);
                });
            }
            finally
            {
                foreach (IBenchClient each in opened)
                {
                    try
                    {
                        each.Dispose();
                    }
                    catch (Exception e)
                    {
                        Console.Error.WriteLine("closing a load connection: " + Messages.Of(e));
                    }
                }
            }
            run["client_cpu_ns"] = NativeClock.ProcessCpuNanoseconds() - cpuBefore; // the whole command's, connections too
            var answer = Ok();
            foreach (var member in run)
            {
                answer[member.Key] = member.Value;
            }
            return answer;
        }

        /// <summary>The workload with its arguments, built on first use and kept for the process's life.</summary>
        private PreparedWorkload Workload(Command command)
        {
            string name = command.RequiredText("workload");
            PreparedWorkload workload;
            if (prepared.TryGetValue(name, out workload))
            {
                return workload;
            }
            Workload found;
            if (!idl.Workloads.TryGetValue(name, out found))
            {
                throw new ArgumentException("unknown workload: " + name);
            }
            workload = new PreparedWorkload(found);
            prepared.Add(name, workload);
            return workload;
        }

        /// <summary>A workload about to travel: refused with the registry's reason when the protocol lacks a need.</summary>
        private PreparedWorkload Remote(Command command)
        {
            PreparedWorkload workload = Workload(command);
            string unsupported = IdlFiles.UnsupportedReason(protocol, workload.Workload.Needs, workload.Operation);
            if (unsupported != null)
            {
                throw new NotSupportedException("workload " + workload.Workload.Name + " is unsupported on " + protocol.Name + ": " + unsupported);
            }
            return workload;
        }

        private string Check(PreparedWorkload workload, object actual)
        {
            if (workload.Operation == null)
            {
                return CalculatorSessions.Compare(workload.Expected(reference), actual);
            }
            return ValueComparer.CompareResult(workload.Operation.Name, workload.Expected(reference), actual);
        }

        private IBench Connected()
        {
            if (client == null)
            {
                throw new InvalidOperationException("not connected: send {\"cmd\": \"connect\"} first");
            }
            return client;
        }

        private void Disconnect()
        {
            if (client != null)
            {
                client.Dispose();
                client = null;
            }
        }

        private static Dictionary<string, object> Ok()
        {
            return new Dictionary<string, object> { { "ok", true } };
        }

        private static Dictionary<string, object> Failure(string message)
        {
            return new Dictionary<string, object> { { "ok", false }, { "error", message } };
        }
    }
}
