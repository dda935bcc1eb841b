using System;
using System.Collections.Generic;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// A workload with its arguments built once for the process's life (the call is bound to them), the expected
    /// answer computed once, and the buffer of samples of each measure since the last prepare.
    /// </summary>
    public sealed class PreparedWorkload
    {
        private object expected;
        private bool expectedKnown;

        public PreparedWorkload(Workload workload)
        {
            Workload = workload;
            Samples = new List<ArraySegment<long>>();
            if (workload.Session != null)
            {
                // A session workload has no Operation: one call is one calculator session (CONTRACT.md#objects).
                Call = CalculatorSessions.Bind(workload.Session, ValueDecoder.DecodeArguments(new[] { "int32" }, workload.Args));
                return;
            }
            Operation = Operations.ByName(workload.Op);
            if (Operation == null)
            {
                throw new ArgumentException("unknown operation " + workload.Op);
            }
            Call = Operation.Bind(ValueDecoder.DecodeArguments(Operation.ParamTypes, workload.Args));
        }

        public Workload Workload { get; private set; }
        /// <summary>null for a session workload.</summary>
        public OperationInfo Operation { get; private set; }

        /// <summary>The operation bound to the prepared arguments: no lookup or decoding on the timed path.</summary>
        public Func<IBench, object> Call { get; private set; }

        /// <summary>One entry per measure since prepare, each call's duration in call order.</summary>
        public List<ArraySegment<long>> Samples { get; private set; }

        public object Expected(IBench reference)
        {
            if (!expectedKnown)
            {
                expected = Call(reference);
                expectedKnown = true;
            }
            return expected;
        }
    }
}
