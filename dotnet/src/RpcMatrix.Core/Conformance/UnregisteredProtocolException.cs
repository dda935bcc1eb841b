using System;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>A protocol name that idl/protocols.json does not list.</summary>
    public sealed class UnregisteredProtocolException : Exception
    {
        public UnregisteredProtocolException(string name)
            : base("protocol '" + name + "' is not in idl/protocols.json")
        {
        }
    }
}
