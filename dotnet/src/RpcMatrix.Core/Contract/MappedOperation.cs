using System;
using System.Collections.Generic;

namespace RpcMatrix.Core.Contract
{
    /// <summary>
    /// One operation bound to a family's mapping whose wire values are objects (XML-RPC, JSON-RPC, .NET Remoting's
    /// BenchService): the converters of its parameters and result, looked up once by contract type name (the mapping's
    /// ToWire and FromWire), so a call does no type dispatch. A server answers with Serve; a client sends
    /// ArgumentsToWire and reads ResultFromWire.
    /// </summary>
    public sealed class MappedOperation
    {
        private static readonly object[] NoArguments = new object[0];

        private readonly Func<object, object>[] argumentsToWire;
        private readonly Func<object, object>[] argumentsFromWire;
        private readonly Func<object, object> resultToWire;
        private readonly Func<object, object> resultFromWire;

        private MappedOperation(OperationInfo operation, Func<string, Func<object, object>> toWire,
            Func<string, Func<object, object>> fromWire)
        {
            Operation = operation;
            argumentsToWire = Array.ConvertAll(operation.ParamTypes, type => toWire(type));
            argumentsFromWire = Array.ConvertAll(operation.ParamTypes, type => fromWire(type));
            resultToWire = toWire(operation.Returns);
            resultFromWire = fromWire(operation.Returns);
        }

        public OperationInfo Operation { get; private set; }

        /// <summary>
        /// The table bound to a mapping: every operation a request/response protocol carries, indexed by operation id;
        /// null at a stream's id. A type the mapping cannot carry fails here, at start, not on a call.
        /// </summary>
        public static MappedOperation[] Bind(Func<string, Func<object, object>> toWire, Func<string, Func<object, object>> fromWire)
        {
            var bound = new MappedOperation[Operations.All.Length];
            foreach (OperationInfo op in Operations.All)
            {
                if (!op.IsStream)
                {
                    bound[op.Id] = new MappedOperation(op, toWire, fromWire);
                }
            }
            return bound;
        }

        /// <summary>Server side: reads the arguments off the wire (their count already checked), calls the Bench, answers the result for the wire.</summary>
        public object Serve(IBench bench, IList<object> wire)
        {
            object[] args = argumentsFromWire.Length == 0 ? NoArguments : new object[argumentsFromWire.Length];
            for (int i = 0; i < args.Length; i++)
            {
                args[i] = argumentsFromWire[i](wire[i]);
            }
            return resultToWire(Operation.Invoke(bench, args));
        }

        /// <summary>Client side: the arguments as the wire carries them.</summary>
        public object[] ArgumentsToWire(object[] args)
        {
            var wire = new object[argumentsToWire.Length];
            for (int i = 0; i < wire.Length; i++)
            {
                wire[i] = argumentsToWire[i](args[i]);
            }
            return wire;
        }

        /// <summary>Client side: the wire's result in the contract's types (null for void).</summary>
        public object ResultFromWire(object wire)
        {
            return resultFromWire(wire);
        }
    }
}
