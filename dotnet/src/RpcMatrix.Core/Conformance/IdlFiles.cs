using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>Loads vectors.json, workloads.json and the protocol registry (protocols.json) from the idl/ folder.</summary>
    public sealed class IdlFiles
    {
        private IdlFiles()
        {
        }

        public IList<Vector> Vectors { get; private set; }
        public IDictionary<string, Workload> Workloads { get; private set; }

        public ProtocolRegistry Registry { get; private set; }

        public static IdlFiles Load(string idlDirectory)
        {
            var files = new IdlFiles();
            files.Vectors = LoadVectors(ReadJson(idlDirectory, "vectors.json"));
            files.Workloads = LoadWorkloads(ReadJson(idlDirectory, "workloads.json"));
            files.Registry = ProtocolRegistry.Parse(ReadJson(idlDirectory, "protocols.json"));
            return files;
        }

        /// <summary>
        /// The registry's reason why a vector or workload cannot travel on the protocol (one of its own needs or
        /// its operation's needs is lacked), or null when it can.
        /// </summary>
        public static string UnsupportedReason(Protocol protocol, string[] needs, OperationInfo op)
        {
            return protocol.UnmetNeed(needs) ?? (op == null ? null : protocol.UnmetNeed(op.Needs));
        }

        private static Dictionary<string, object> ReadJson(string directory, string name)
        {
            string text = File.ReadAllText(Path.Combine(directory, name), Encoding.UTF8);
            return (Dictionary<string, object>)JsonParser.Parse(text);
        }

        private static IList<Vector> LoadVectors(Dictionary<string, object> root)
        {
            var vectors = new List<Vector>();
            foreach (Dictionary<string, object> json in (List<object>)root["vectors"])
            {
                var vector = new Vector
                {
                    Id = (string)json["id"],
                    Op = Text(json, "op"),
                    Args = json.ContainsKey("args") ? (List<object>)json["args"] : new List<object>(),
                    Expect = Text(json, "expect"),
                    Needs = Strings(json, "needs"),
                    Session = Text(json, "session"),
                    Script = Text(json, "script"),
                    Attack = Text(json, "attack"),
                };
                if (json.ContainsKey("expect_error"))
                {
                    var error = (Dictionary<string, object>)json["expect_error"];
                    vector.ExpectsError = true;
                    vector.ErrorCode = (int)ValueDecoder.Decode("int32", error["code"]);
                    vector.ErrorMessage = (string)error["message"];
                }
                vectors.Add(vector);
            }
            return vectors;
        }

        private static IDictionary<string, Workload> LoadWorkloads(Dictionary<string, object> root)
        {
            var workloads = new Dictionary<string, Workload>();
            foreach (Dictionary<string, object> json in (List<object>)root["workloads"])
            {
                var workload = new Workload
                {
                    Name = (string)json["name"],
                    Op = Text(json, "op"),
                    Args = (List<object>)json["args"],
                    Needs = Strings(json, "needs"),
                    Session = Text(json, "session"),
                };
                workloads.Add(workload.Name, workload);
            }
            return workloads;
        }

        private static string Text(Dictionary<string, object> json, string key)
        {
            return json.ContainsKey(key) ? (string)json[key] : null;
        }

        private static string[] Strings(Dictionary<string, object> json, string key)
        {
            if (!json.ContainsKey(key))
            {
                return new string[0];
            }
            var list = (List<object>)json[key];
            return list.ConvertAll(x => (string)x).ToArray();
        }
    }
}
