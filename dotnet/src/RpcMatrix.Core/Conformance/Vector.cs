using System.Collections.Generic;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>One conformance vector of idl/vectors.json, arguments still in their JSON encoding.</summary>
    public sealed class Vector
    {
        public string Id;
        public string Op;
        public List<object> Args;

        /// <summary>null (an echo), or "contract".</summary>
        public string Expect;

        public bool ExpectsError;
        public int ErrorCode;
        public string ErrorMessage;

        /// <summary>Capabilities of idl/protocols.json the vector needs (besides its operation's).</summary>
        public string[] Needs = new string[0];

        /// <summary>"calculator" for a session vector (no Op): Script names the script (CONTRACT.md#vectors).</summary>
        public string Session;
        public string Script;

        /// <summary>The defect the server must refuse, for an attack vector (CONTRACT.md#vectors); else null.</summary>
        public string Attack;
    }
}
