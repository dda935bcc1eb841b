using System;
using System.Runtime.Serialization;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>
    /// BenchError as it crosses the channel: a [Serializable] exception whose code travels in the serialization
    /// info beside the message (Core's BenchError is not serializable; the client turns this back into it). It
    /// travels without the server's stack: GetObjectData writes what Exception's deserializing constructor reads, its
    /// stack trace strings empty (Exception.GetObjectData would send the server's frames to any caller).
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
            if (info == null)
            {
                throw new ArgumentNullException("info");
            }
            info.AddValue("ClassName", GetType().ToString(), typeof(string));
            info.AddValue("Message", Message, typeof(string));
            info.AddValue("Data", null, typeof(System.Collections.IDictionary));
            info.AddValue("InnerException", null, typeof(Exception));
            info.AddValue("HelpURL", null, typeof(string));
            info.AddValue("StackTraceString", null, typeof(string));
            info.AddValue("RemoteStackTraceString", null, typeof(string));
            info.AddValue("RemoteStackIndex", 0, typeof(int));
            info.AddValue("ExceptionMethod", null, typeof(string));
            info.AddValue("HResult", HResult);
            info.AddValue("Source", null, typeof(string));
            info.AddValue(CodeKey, Code);
        }
    }
}
