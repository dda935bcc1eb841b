using System.Collections.Generic;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>The verdict on one vector: pass, fail, unsupported or error, with its reason.</summary>
    public sealed class VectorResult
    {
        private VectorResult(string id, string status, string reason)
        {
            Id = id;
            Status = status;
            Reason = reason;
        }

        public string Id { get; private set; }
        public string Status { get; private set; }
        public string Reason { get; private set; }

        public static VectorResult Pass(string id) { return new VectorResult(id, "pass", ""); }
        /// <summary>A pass that says what was seen, e.g. the refusal of an attack.</summary>
        public static VectorResult Pass(string id, string reason) { return new VectorResult(id, "pass", reason); }
        public static VectorResult Fail(string id, string reason) { return new VectorResult(id, "fail", reason); }
        public static VectorResult Unsupported(string id, string reason) { return new VectorResult(id, "unsupported", reason); }
        public static VectorResult Error(string id, string reason) { return new VectorResult(id, "error", reason); }

        public Dictionary<string, object> ToJson()
        {
            return new Dictionary<string, object> { { "id", Id }, { "status", Status }, { "reason", Reason } };
        }
    }
}
