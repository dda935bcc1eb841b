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
        public string[] Tags = new string[0];

        /// <summary>Protocols the vector belongs to, or empty when it belongs to all.</summary>
        public string[] Protocols = new string[0];
    }
}
