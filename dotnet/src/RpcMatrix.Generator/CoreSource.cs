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
                string returns = CSharp.CoreType(contract, op.Returns);
                file.Line("public " + returns + " " + op.Method + "(" + CSharp.Parameters(op, t => CSharp.CoreType(contract, t)) + ")");
                file.Line("{");
                file.Line((op.IsVoid ? "" : "return ") + "Next()." + op.Method + "(" + CSharp.Arguments(op) + ");");
                file.Line("}");
            }
            file.Line("}");
            file.Line("}");
            return file.ToString();
        }

        /// <summary>The typed method: one Call with the row and the arguments, its result unboxed; a stream is refused.</summary>
        private static void ClientMethod(SourceFile file, Contract contract, Operation op)
        {
            string returns = CSharp.CoreType(contract, op.Returns);
            string parameters = CSharp.Parameters(op, t => CSharp.CoreType(contract, t));
            if (op.IsStream)
            {
                file.Line("public virtual " + returns + " " + op.Method + "(" + parameters + ")");
                file.Line("{");
                file.Line("throw new NotSupportedException(Operations." + op.Method + ".Name + NoStream);");
                file.Line("}");
                return;
            }
            string call = "Call(Operations." + op.Method + ", " + CSharp.ArgumentArray(op) + ")";
            file.Line("public " + returns + " " + op.Method + "(" + parameters + ")");
            file.Line("{");
            file.Line(op.IsVoid ? call + ";" : "return (" + returns + ")" + call + ";");
            file.Line("}");
        }
    }
}
