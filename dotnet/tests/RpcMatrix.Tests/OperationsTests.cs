using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.Remoting.Messaging;
using System.Runtime.Remoting.Proxies;
using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Tests
{
    /// <summary>The compiled-in operation table must match idl/contract.json.</summary>
    [TestFixture]
    public class OperationsTests
    {
        [Test]
        public void TableMatchesContractJson()
        {
            var root = (Dictionary<string, object>)JsonParser.Parse(File.ReadAllText(Path.Combine(IdlPaths.Directory, "contract.json")));
            var operations = (List<object>)root["operations"];
            Assert.AreEqual(operations.Count, Operations.All.Length);
            foreach (Dictionary<string, object> json in operations)
            {
                OperationInfo op = Operations.ByName((string)json["name"]);
                Assert.IsNotNull(op, (string)json["name"]);
                Assert.AreEqual(int.Parse(json["id"].ToString()), op.Id);
                Assert.AreSame(op, Operations.ById(op.Id));
                Assert.AreEqual(json["returns"], op.Returns, op.Name);
                var parameters = ((List<object>)json["params"]).Cast<Dictionary<string, object>>().ToList();
                Assert.AreEqual(parameters.Select(p => (string)p["name"]).ToArray(), op.ParamNames, op.Name);
                Assert.AreEqual(parameters.Select(p => (string)p["type"]).ToArray(), op.ParamTypes, op.Name);
                Assert.AreEqual(json.ContainsKey("raises") ? json["raises"] : null, op.Raises, op.Name);
                Assert.AreEqual(op.Returns.StartsWith("stream "), op.IsStream, op.Name);
                var needs = json.ContainsKey("needs") ? ((List<object>)json["needs"]).Cast<string>().ToArray() : new string[0];
                Assert.AreEqual(needs, op.Needs, op.Name);
            }
        }

        /// <summary>Each row's Invoke calls the IBench method of its name, with its arguments in order, and answers its result.</summary>
        [Test]
        public void EveryOperationInvokesItsBenchMethod()
        {
            EachOperationReachesTheBench(bench => bench);
        }

        /// <summary>ForwardingBench's methods (generated from contract.json) pass each call on once, unchanged, both ways.</summary>
        [Test]
        public void ForwardingBenchPassesEveryOperationOn()
        {
            var forwardings = new List<Forwarding>();
            EachOperationReachesTheBench(bench =>
            {
                forwardings.Add(new Forwarding(bench));
                return forwardings[forwardings.Count - 1];
            });
            Assert.AreEqual(Enumerable.Repeat(1, Operations.All.Length), forwardings.Select(f => f.Calls));
        }

        /// <summary>OperationClient's typed methods (generated from contract.json) each make one Call with their row.</summary>
        [Test]
        public void OperationClientCallsEveryOperationByItsRow()
        {
            using (var client = new RecordingClient())
            {
                foreach (OperationInfo op in Operations.All)
                {
                    object[] args = Arguments(op);
                    if (op.IsStream)
                    {
                        Assert.Throws<NotSupportedException>(() => op.Invoke(client, args), op.Name);
                        continue;
                    }
                    client.Answer = op.IsVoid ? null : Sample(op.Returns, 7);
                    object result = op.Invoke(client, args);
                    Assert.AreSame(op, client.Operation, op.Name);
                    Assert.AreEqual(args, client.Args, op.Name);
                    Assert.AreEqual(client.Answer, result, op.Name);
                }
            }
        }

        /// <summary>Each operation invoked on wrap(a recording bench) reaches the recorder's method of its name and answers its result.</summary>
        private static void EachOperationReachesTheBench(Func<IBench, IBench> wrap)
        {
            foreach (OperationInfo op in Operations.All)
            {
                var recorder = new RecordingBench();
                IBench bench = wrap((IBench)recorder.GetTransparentProxy());
                object[] args = Arguments(op);
                object result = op.Invoke(bench, args);
                Assert.AreEqual(char.ToUpperInvariant(op.Name[0]) + op.Name.Substring(1), recorder.Method, op.Name);
                Assert.AreEqual(args, recorder.Args, op.Name);
                if (op.IsVoid)
                {
                    Assert.IsNull(result, op.Name);
                }
                else if (!op.IsStream)
                {
                    Assert.AreEqual(recorder.Answer, result, op.Name);
                }
            }
        }

        private static object[] Arguments(OperationInfo op)
        {
            return op.ParamTypes.Select((type, i) => Sample(type, i)).ToArray();
        }

        /// <summary>A distinct value of the parameter's .NET type.</summary>
        private static object Sample(string type, int position)
        {
            switch (type)
            {
                case "bool": return true;
                case "int8": return (sbyte)(position + 1);
                case "int16": return (short)(position + 1);
                case "int32": return position + 1;
                case "int64": return (long)(position + 1);
                case "float32": return position + 0.5f;
                case "float64": return position + 0.5;
                case "string": return "s" + position;
                case "bytes": return new byte[] { (byte)position };
                case "float64[]": return new[] { position + 0.5 };
                case "Record": return new Record();
                case "Book[]": return new[] { new Book() };
                case "Item[]": return new[] { new Item() };
                default: throw new System.ArgumentException("no sample of " + type);
            }
        }

        private sealed class Forwarding : ForwardingBench
        {
            private readonly IBench bench;

            public Forwarding(IBench bench)
            {
                this.bench = bench;
            }

            public int Calls;

            protected override IBench Next()
            {
                Calls++;
                return bench;
            }
        }

        private sealed class RecordingClient : OperationClient
        {
            public OperationInfo Operation;
            public object[] Args;
            public object Answer;

            public override void Dispose()
            {
            }

            protected override object Call(OperationInfo op, object[] args)
            {
                Operation = op;
                Args = args;
                return Answer;
            }
        }

        /// <summary>An IBench that records the one call made on it and answers a fresh value of the method's return type.</summary>
        private sealed class RecordingBench : RealProxy
        {
            public string Method;
            public object[] Args;
            public object Answer;

            public RecordingBench() : base(typeof(IBench))
            {
            }

            public override IMessage Invoke(IMessage message)
            {
                var call = (IMethodCallMessage)message;
                Method = call.MethodName;
                Args = call.Args;
                var returns = ((MethodInfo)call.MethodBase).ReturnType;
                Answer = returns == typeof(void) ? null
                    : returns == typeof(IEnumerable<double[]>) ? new[] { new[] { 1.0 }, new[] { 2.0 } }
                    : returns.IsArray ? Array.CreateInstance(returns.GetElementType(), 1)
                    : returns == typeof(string) ? "answer"
                    : Activator.CreateInstance(returns);
                return new ReturnMessage(Answer, null, 0, call.LogicalCallContext, call);
            }
        }
    }
}
