using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// A client whose protocol calls every operation the same way, by its table entry and arguments: the contract's
    /// typed methods (IBench's) are generated from idl/contract.json at build time (RpcMatrix.Generator's
    /// CoreSource: each one Call with its row of Operations), each protocol writes only Call (and Dispose), converting
    /// with its family's mapping. Java's OperationClient.
    /// </summary>
    public abstract partial class OperationClient : IBenchClient
    {
        private static readonly object[] NoArguments = new object[0];

        /// <summary>What a server stream's method throws: request/response protocols have none (gRPC only).</summary>
        private const string NoStream = " is a server stream (contract.json needs server-streaming): no protocol here has one";

        /// <summary>
        /// Sends one call: arguments in the contract's .NET types (boxed, parameter order; never modified); returns the
        /// result in the contract's types, null for void; throws BenchError for the contract's error.
        /// </summary>
        protected abstract object Call(OperationInfo op, object[] args);

        public abstract void Dispose();

        /// <summary>One call at a time unless the stack says otherwise (IBenchClient.SharesConnection).</summary>
        public virtual bool SharesConnection { get { return false; } }
    }
}
