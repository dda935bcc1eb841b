using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>
    /// The Bench as a well-known singleton (URI "Bench"). Its contract methods, whose names and types the binary
    /// formatter's method-call messages carry, are generated from idl/contract.json at build time
    /// (RpcMatrix.Generator's RemotingSource); each answers through Serve: the operation table bound to
    /// RemotingMapping, BenchError as RemoteBenchError. It lives as long as the server (no lease).
    /// </summary>
    public sealed partial class BenchService : MarshalByRefObject
    {
        public const string Uri = "Bench";

        private static readonly object[] NoArguments = new object[0];
        private static readonly MappedOperation[] Table = MappedOperation.Bind(RemotingMapping.ToWire, RemotingMapping.FromWire);

        private readonly IBench bench;

        public BenchService(IBench bench)
        {
            this.bench = bench;
        }

        public override object InitializeLifetimeService()
        {
            return null;
        }

        /// <summary>One call: the arguments as the channel carries them, the result for the channel.</summary>
        private object Serve(OperationInfo op, object[] wire)
        {
            try
            {
                return Table[op.Id].Serve(bench, wire);
            }
            catch (BenchError e)
            {
                throw new RemoteBenchError(e.Code, e.Message);
            }
        }
    }
}
