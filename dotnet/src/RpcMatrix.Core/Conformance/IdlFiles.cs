using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>Loads vectors.json, workloads.json and protocol-limits.json from the idl/ folder.</summary>
    public sealed class IdlFiles
    {
        private IdlFiles()
        {
        }

        public IList<Vector> Vectors { get; private set; }
        public IDictionary<string, Workload> Workloads { get; private set; }

        /// <summary>protocol -> (vector tag -> reason).</summary>
        public IDictionary<string, Dictionary<string, string>> Limits { get; private set; }

        public static IdlFiles Load(string idlDirectory)
        {
            var files = new IdlFiles();
            files.Vectors = LoadVectors(ReadJson(idlDirectory, "vectors.json"));
            files.Workloads = LoadWorkloads(ReadJson(idlDirectory, "workloads.json"));
            files.Limits = LoadLimits(ReadJson(idlDirectory, "protocol-limits.json"));
            return files;
        }

        /// <summary>The reason a vector cannot travel on this protocol, or null when it can.</summary>
        public string UnsupportedReason(string protocol, Vector vector)
        {
            Dictionary<string, string> limits;
            if (!Limits.TryGetValue(protocol, out limits))
            {
                return null;
            }
            foreach (string tag in vector.Tags)
            {
                string reason;
                if (limits.TryGetValue(tag, out reason))
                {
                    return reason;
                }
            }
            return null;
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
                    Op = (string)json["op"],
                    Args = (List<object>)json["args"],
                    Expect = json.ContainsKey("expect") ? (string)json["expect"] : null,
                    Tags = Strings(json, "tags"),
                    Protocols = Strings(json, "protocols"),
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
                    Op = (string)json["op"],
                    Args = (List<object>)json["args"],
                    Protocols = Strings(json, "protocols"),
                };
                workloads.Add(workload.Name, workload);
            }
            return workloads;
        }

        private static IDictionary<string, Dictionary<string, string>> LoadLimits(Dictionary<string, object> root)
        {
            var limits = new Dictionary<string, Dictionary<string, string>>();
            foreach (var protocol in (Dictionary<string, object>)root["limits"])
            {
                var reasons = new Dictionary<string, string>();
                foreach (var entry in (Dictionary<string, object>)protocol.Value)
                {
                    reasons.Add(entry.Key, (string)entry.Value);
                }
                limits.Add(protocol.Key, reasons);
            }
            return limits;
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
