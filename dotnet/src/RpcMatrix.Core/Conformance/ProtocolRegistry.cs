using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>idl/protocols.json: every protocol a manifest may name. Servers and clients refuse any other.</summary>
    public sealed class ProtocolRegistry
    {
        private readonly Dictionary<string, Protocol> protocols;

        private ProtocolRegistry(Dictionary<string, Protocol> protocols)
        {
            this.protocols = protocols;
        }

        public static ProtocolRegistry Load(string idlDirectory)
        {
            string text = File.ReadAllText(Path.Combine(idlDirectory, "protocols.json"), Encoding.UTF8);
            return Parse((Dictionary<string, object>)JsonParser.Parse(text));
        }

        public static ProtocolRegistry Parse(Dictionary<string, object> root)
        {
            var protocols = new Dictionary<string, Protocol>();
            foreach (var entry in (Dictionary<string, object>)root["protocols"])
            {
                var json = (Dictionary<string, object>)entry.Value;
                var protocol = new Protocol { Name = entry.Key, Family = (string)json["family"] };
                CopyStrings(json, "variant", protocol.Variant);
                CopyStrings(json, "lacks", protocol.Lacks);
                protocols.Add(entry.Key, protocol);
            }
            return new ProtocolRegistry(protocols);
        }

        /// <summary>The registered protocol, or an UnregisteredProtocolException with the runner's wording.</summary>
        public Protocol Get(string name)
        {
            Protocol protocol;
            if (name == null || !protocols.TryGetValue(name, out protocol))
            {
                throw new UnregisteredProtocolException(name);
            }
            return protocol;
        }

        private static void CopyStrings(Dictionary<string, object> json, string key, Dictionary<string, string> into)
        {
            object value;
            if (!json.TryGetValue(key, out value) || value == null)
            {
                return;
            }
            foreach (var member in (Dictionary<string, object>)value)
            {
                into.Add(member.Key, Convert.ToString(member.Value, System.Globalization.CultureInfo.InvariantCulture));
            }
        }
    }
}
