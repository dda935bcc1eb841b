using System.Collections.Generic;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>One entry of idl/protocols.json: the family that implements it, its variant and what it lacks.</summary>
    public sealed class Protocol
    {
        public string Name;
        public string Family;

        /// <summary>Variant settings, e.g. security: tls, encoding: compact.</summary>
        public Dictionary<string, string> Variant = new Dictionary<string, string>();

        /// <summary>Capability -> why this protocol lacks it.</summary>
        public Dictionary<string, string> Lacks = new Dictionary<string, string>();

        /// <summary>True for a gzip variant ({"compression": "gzip"}: every body compressed both ways).</summary>
        public bool Gzip()
        {
            string compression;
            if (!Variant.TryGetValue("compression", out compression) || compression == "none")
            {
                return false;
            }
            if (compression == "gzip")
            {
                return true;
            }
            throw new System.ArgumentException("protocol '" + Name + "': unknown compression '" + compression + "'");
        }

        /// <summary>The registry's reason when any of these needs is lacked, or null when all are met.</summary>
        public string UnmetNeed(IEnumerable<string> needs)
        {
            foreach (string need in needs)
            {
                string reason;
                if (Lacks.TryGetValue(need, out reason))
                {
                    return reason;
                }
            }
            return null;
        }
    }
}
