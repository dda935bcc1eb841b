using System;

namespace RpcMatrix.Core.Contract
{
    /// <summary>
    /// One operation of the contract: its wire id, name, parameter types, return type, the error it may raise, and
    /// how to call it on any IBench with its arguments as object[] (the contract's .NET types, boxed).
    /// </summary>
    public sealed class OperationInfo
    {
        public OperationInfo(int id, string name, string returns, string[] paramNames, string[] paramTypes, string raises,
            string[] needs, Func<IBench, object[], object> invoke)
        {
            Id = id;
            Name = name;
            Returns = returns;
            ParamNames = paramNames;
            ParamTypes = paramTypes;
            Raises = raises;
            Needs = needs;
            Invoke = invoke;
        }

        public int Id { get; private set; }
        public string Name { get; private set; }

        /// <summary>The contract's type name: "int64", "float64[]", "Item[]", "void", "stream float64[]".</summary>
        public string Returns { get; private set; }

        public string[] ParamNames { get; private set; }
        public string[] ParamTypes { get; private set; }

        /// <summary>"BenchError" when the operation declares it (contract.json "raises"), else null.</summary>
        public string Raises { get; private set; }

        /// <summary>Capabilities of idl/protocols.json every call of this operation needs.</summary>
        public string[] Needs { get; private set; }

        /// <summary>
        /// Calls the operation on a Bench: arguments in parameter order, the result boxed (null for void). A stream
        /// answers the concatenation of its chunks. One delegate, written once in the table: no reflection.
        /// </summary>
        public Func<IBench, object[], object> Invoke { get; private set; }

        public bool IsVoid { get { return Returns == "void"; } }

        /// <summary>The call with its arguments bound once, so that timed loops pay for no lookup.</summary>
        public Func<IBench, object> Bind(object[] args)
        {
            Func<IBench, object[], object> invoke = Invoke;
            return bench => invoke(bench, args);
        }

        /// <summary>A server stream (gRPC only): request/response protocols serve and call every other operation.</summary>
        public bool IsStream { get { return Returns.StartsWith("stream ", StringComparison.Ordinal); } }
    }
}
