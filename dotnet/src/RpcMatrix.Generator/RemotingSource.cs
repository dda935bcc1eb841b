namespace RpcMatrix.Generator
{
    /// <summary>
    /// .NET Remoting's BenchService methods: the binary formatter's method-call message names the published type
    /// and its method and carries typed arguments, so each operation is a method of the contract's name and types
    /// (structs as their [Serializable] Remote copies). Each answers through Serve (the operation table bound to
    /// RemotingMapping). A stream is not carried.
    /// </summary>
    public static class RemotingSource
    {
        public static string Write(Contract contract)
        {
            var file = new SourceFile();
            file.Line("using RpcMatrix.Core.Contract;");
            file.Line();
            file.Line("namespace RpcMatrix.Remoting.Service");
            file.Line("{");
            file.Line("public sealed partial class BenchService");
            file.Line("{");
            foreach (Operation op in contract.Operations)
            {
                if (op.IsStream)
                {
                    continue;
                }
                string returns = WireType(contract, op.Returns);
                file.Method("public " + returns + " " + op.Method + "(" + CSharp.Parameters(op, t => WireType(contract, t)) + ")",
                    CSharp.Answering(op, returns, "Serve(Operations." + op.Method + ", " + CSharp.ArgumentArray(op) + ")"));
            }
            file.Line("}");
            file.Line("}");
            return file.ToString();
        }

        /// <summary>RemotingMapping.WireType's names: Core's types, a struct as its Remote copy.</summary>
        private static string WireType(Contract contract, string type)
        {
            string element = type.EndsWith("[]") ? type.Substring(0, type.Length - 2) : type;
            return System.Array.IndexOf(contract.Structs, element) >= 0 ? "Remote" + CSharp.CoreType(contract, type) : CSharp.CoreType(contract, type);
        }
    }
}
