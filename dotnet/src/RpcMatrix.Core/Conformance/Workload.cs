using System.Collections.Generic;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>One timed workload of idl/workloads.json.</summary>
    public sealed class Workload
    {
        public string Name;
        public string Op;
        public List<object> Args;
        /// <summary>Capabilities of idl/protocols.json the workload needs (besides its operation's).</summary>
        public string[] Needs = new string[0];
        /// <summary>"calculator" for a session workload (no Op): one call is one session (CONTRACT.md#objects).</summary>
        public string Session;
    }
}
