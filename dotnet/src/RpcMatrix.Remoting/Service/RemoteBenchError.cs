using System;
using System.Runtime.Serialization;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>
    /// BenchError as it crosses the channel: a [Serializable] exception whose code travels in the serialization
    /// info beside the message (Core's BenchError is not serializable; the client turns this back into it).
    /// </summary>
    [Serializable]
    public sealed class RemoteBenchError : Exception
    {
        private const string CodeKey = "BenchErrorCode";

        public RemoteBenchError(int code, string message) : base(message)
        {
            Code = code;
        }

        private RemoteBenchError(SerializationInfo info, StreamingContext context) : base(info, context)
        {
            Code = info.GetInt32(CodeKey);
        }

        public int Code { get; private set; }

        public override void GetObjectData(SerializationInfo info, StreamingContext context)
        {
            base.GetObjectData(info, context);
            info.AddValue(CodeKey, Code);
        }
    }
}
