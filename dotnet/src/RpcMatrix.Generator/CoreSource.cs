namespace RpcMatrix.Generator
{
    /// <summary>
    /// RpcMatrix.Core's per-operation code: OperationClient's typed methods (each one Call through its row of the
    /// operation table) and ForwardingBench (each IBench method passed on to the bench Next answers).
    /// </summary>
    public static class CoreSource
    {
        public static string Write(Contract contract)
        {
            var file = new SourceFile();
            file.Line("using System;");
            file.Line("using System.Collections.Generic;");
            file.Line("using RpcMatrix.Core.Contract;");
            file.Line();
            file.Line("namespace RpcMatrix.Core.Harness");
            file.Line("{");
            file.Line("public abstract partial class OperationClient");
            file.Line("{");
            foreach (Operation op in contract.Operations)
            {
                ClientMethod(file, contract, op);
            }
            file.Line("}");
            file.Line("}");
            file.Line();
            file.Line("namespace RpcMatrix.Core.Contract");
            file.Line("{");
            file.Line("public abstract partial class ForwardingBench : IBench");
            file.Line("{");
            foreach (Operation op in contract.Operations)
            {
                file.Method(Signature(contract, op, "public"), (op.IsVoid ? "" : "return ") + "Next()." + op.Method + "(" + CSharp.Arguments(op) + ");");
            }
            file.Line("}");
            file.Line("}");
            return file.ToString();
        }

        /// <summary>The typed method: one Call with the row and the arguments, its result unboxed; a stream is refused.</summary>
        private static void ClientMethod(SourceFile file, Contract contract, Operation op)
        {
            if (op.IsStream)
            {
                file.Method(Signature(contract, op, "public virtual"),
                    "throw new NotSupportedException(Operations." + op.Method + ".Name + NoStream);");
                return;
            }
            file.Method(Signature(contract, op, "public"), CSharp.Answering(op, CSharp.CoreType(contract, op.Returns),
                "Call(Operations." + op.Method + ", " + CSharp.ArgumentArray(op) + ")"));
        }

        /// <summary>"public int AnOperation(int value)": the IBench method's, after the modifiers given.</summary>
        private static string Signature(Contract contract, Operation op, string modifiers)
        {
            return modifiers + " " + CSharp.CoreType(contract, op.Returns) + " " + op.Method + "("
                + CSharp.Parameters(op, t => CSharp.CoreType(contract, t)) + ")";
        }
    }
}
