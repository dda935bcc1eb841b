using System;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>An XML-RPC fault: faultCode and faultString, as sent or received.</summary>
    public sealed class XmlRpcFault : Exception
    {
        // Codes of the "specification for fault code interoperability" for errors that are not the service's own.
        public const int ParseError = -32700;
        public const int InvalidRequest = -32600;
        public const int MethodNotFound = -32601;
        public const int InvalidParams = -32602;
        public const int InternalError = -32603;

        public XmlRpcFault(int code, string faultString) : base(faultString)
        {
            Code = code;
        }

        public int Code { get; private set; }
    }
}
