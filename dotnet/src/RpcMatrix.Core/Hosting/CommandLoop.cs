using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Core.Hosting
{
    /// <summary>
    /// The client side of runner/PROTOCOL.md: one JSON command per input line, exactly one JSON answer line each.
    /// </summary>
    public sealed class CommandLoop
    {
        private readonly IdlFiles idl;
        private readonly Func<IBenchClient> connect;
        private readonly ReferenceBench reference = new ReferenceBench();
        private IBenchClient client;

        public CommandLoop(IdlFiles idl, Func<IBenchClient> connect)
        {
            this.idl = idl;
            this.connect = connect;
        }

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
                var command = JsonParser.Parse(line) as Dictionary<string, object>;
                string name = command == null ? null : Text(command, "cmd");
                switch (name)
                {
                    case "connect": return Connect();
                    case "vectors": return Vectors(Text(command, "protocol"));
                    case "warmup": return Warmup(Text(command, "workload"), Count(command, "calls"));
                    case "measure": return Measure(Text(command, "workload"), Count(command, "calls"), Count(command, "repetitions"));
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

        private Dictionary<string, object> Connect()
        {
            Disconnect();
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
            return answer;
        }

        private Dictionary<string, object> Vectors(string protocol)
        {
            if (string.IsNullOrEmpty(protocol))
            {
                throw new ArgumentException("vectors needs a \"protocol\"");
            }
            var results = new List<object>();
            foreach (VectorResult result in new VectorRunner(idl, reference).Run(Connected(), protocol))
            {
                results.Add(result.ToJson());
            }
            var answer = Ok();
            answer["results"] = results;
            return answer;
        }

        private Dictionary<string, object> Warmup(string workloadName, int calls)
        {
            Workload workload = FindWorkload(workloadName);
            Func<IBench, object> call = Bind(workload);
            IBench remote = Connected();
            object expected = call(reference);
            for (int i = 0; i < calls; i++)
            {
                object actual = call(remote);
                string difference = ValueComparer.CompareResult(workload.Op, expected, actual);
                if (difference != null)
                {
                    return Failure("warm-up call " + (i + 1) + " of " + workloadName + ": " + difference);
                }
            }
            var answer = Ok();
            answer["checked"] = calls;
            return answer;
        }

        private Dictionary<string, object> Measure(string workloadName, int calls, int repetitions)
        {
            Workload workload = FindWorkload(workloadName);
            Func<IBench, object> call = Bind(workload);
            IBench remote = Connected();
            var samples = new List<object>(repetitions);
            for (int r = 0; r < repetitions; r++)
            {
                var durations = new long[calls];
                for (int i = 0; i < calls; i++)
                {
                    long start = MonotonicClock.Now();
                    call(remote);
                    long end = MonotonicClock.Now();
                    durations[i] = MonotonicClock.ElapsedNanoseconds(start, end);
                }
                samples.Add(durations);
            }
            var answer = Ok();
            answer["samples_ns"] = samples;
            return answer;
        }

        private Workload FindWorkload(string name)
        {
            Workload workload;
            if (name == null || !idl.Workloads.TryGetValue(name, out workload))
            {
                throw new ArgumentException("unknown workload: " + name);
            }
            return workload;
        }

        private static Func<IBench, object> Bind(Workload workload)
        {
            OperationInfo op = Operations.ByName(workload.Op);
            if (op == null)
            {
                throw new ArgumentException("unknown operation " + workload.Op);
            }
            return OperationInvoker.Bind(op.Name, ValueDecoder.DecodeArguments(op.ParamTypes, workload.Args));
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

        private static string Text(Dictionary<string, object> command, string key)
        {
            object value;
            return command.TryGetValue(key, out value) ? value as string : null;
        }

        private static int Count(Dictionary<string, object> command, string key)
        {
            object value;
            var number = command.TryGetValue(key, out value) ? value as JsonNumber : null;
            int count;
            if (number == null || !int.TryParse(number.Text, NumberStyles.None, CultureInfo.InvariantCulture, out count))
            {
                throw new ArgumentException("\"" + key + "\" must be a non-negative integer");
            }
            return count;
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
