using System;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>Well-formed XML that is not a valid XML-RPC message, or a value that does not parse.</summary>
    public sealed class XmlRpcFormatException : Exception
    {
        public XmlRpcFormatException(string message) : base(message)
        {
        }
    }
}
