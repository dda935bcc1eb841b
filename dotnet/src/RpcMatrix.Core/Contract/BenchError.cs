using System;

namespace RpcMatrix.Core.Contract
{
    /// <summary>The contract's declared error: every protocol carries Code and Message unchanged.</summary>
    public sealed class BenchError : Exception
    {
        public BenchError(int code, string message) : base(message)
        {
            Code = code;
        }

        public int Code { get; private set; }

        public override string ToString()
        {
            return "BenchError{code=" + Code + ", message=" + Message + "}";
        }
    }
}
