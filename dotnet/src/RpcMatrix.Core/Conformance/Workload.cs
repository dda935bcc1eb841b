using System.Collections.Generic;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>One timed workload of idl/workloads.json.</summary>
    public sealed class Workload
    {
        public string Name;
        public string Op;
        public List<object> Args;
        public string[] Protocols = new string[0];
    }
}
