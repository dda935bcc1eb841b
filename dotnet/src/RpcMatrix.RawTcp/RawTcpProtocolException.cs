using System;

namespace RpcMatrix.RawTcp
{
    /// <summary>A frame that breaks idl/rawtcp.md: truncated, oversized, or a value that does not decode.</summary>
    public sealed class RawTcpProtocolException : Exception
    {
        public RawTcpProtocolException(string message) : base(message)
        {
        }
    }
}
