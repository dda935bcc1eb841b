using System;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>A JSON-RPC 2.0 error object (code, message) as an exception, on the server and the client.</summary>
    public sealed class JsonRpcError : Exception
    {
        public const int ParseError = -32700;
        public const int InvalidRequest = -32600;
        public const int MethodNotFound = -32601;
        public const int InvalidParams = -32602;
        public const int InternalError = -32603;

        public JsonRpcError(int code, string message) : base(message)
        {
            Code = code;
        }

        public int Code { get; private set; }
    }
}
