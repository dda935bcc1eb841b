using System;
using System.Collections.Generic;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>Runs the vectors of idl/vectors.json against a Bench over one protocol and judges each answer.</summary>
    public sealed class VectorRunner
    {
        private readonly IdlFiles idl;
        private readonly IBench reference;

        public VectorRunner(IdlFiles idl, IBench reference)
        {
            this.idl = idl;
            this.reference = reference;
        }

        /// <summary>Every vector in file order; those needing what the protocol lacks are not sent.</summary>
        public List<VectorResult> Run(IBench remote, Protocol protocol)
        {
            var results = new List<VectorResult>();
            foreach (Vector vector in idl.Vectors)
            {
                results.Add(RunOne(remote, protocol, vector, Operations.ByName(vector.Op)));
            }
            return results;
        }

        private VectorResult RunOne(IBench remote, Protocol protocol, Vector vector, OperationInfo op)
        {
            string unsupported = IdlFiles.UnsupportedReason(protocol, vector.Needs, op);
            if (unsupported != null)
            {
                return VectorResult.Unsupported(vector.Id, unsupported);
            }
            if (vector.Session != null)
            {
                return CalculatorSessions.Run(vector, remote);
            }
            if (op == null)
            {
                return VectorResult.Error(vector.Id, "unknown operation " + vector.Op);
            }
            object[] args;
            try
            {
                args = ValueDecoder.DecodeArguments(op.ParamTypes, vector.Args);
            }
            catch (Exception e)
            {
                return VectorResult.Error(vector.Id, "bad vector: " + e.Message);
            }
            if (vector.Attack != null)
            {
                return AttackVectors.Run(remote, vector, op, args);
            }
            Func<IBench, object> call = op.Bind(args);
            object actual;
            try
            {
                actual = call(remote);
            }
            catch (BenchError e)
            {
                return JudgeError(vector, e);
            }
            catch (Exception e)
            {
                return VectorResult.Error(vector.Id, Messages.Of(e));
            }
            if (vector.ExpectsError)
            {
                return VectorResult.Fail(vector.Id, "$: expected " + Describe(vector.ErrorCode, vector.ErrorMessage) + ", actual a normal return");
            }
            object expected = vector.Expect == "contract" ? call(reference) : (op.IsVoid ? null : args[0]);
            string difference = ValueComparer.CompareResult(op.Name, expected, actual);
            return difference == null ? VectorResult.Pass(vector.Id) : VectorResult.Fail(vector.Id, difference);
        }

        private static VectorResult JudgeError(Vector vector, BenchError error)
        {
            if (!vector.ExpectsError)
            {
                return VectorResult.Fail(vector.Id, "$: expected a value, actual " + Describe(error.Code, error.Message));
            }
            if (error.Code != vector.ErrorCode || !string.Equals(error.Message, vector.ErrorMessage, StringComparison.Ordinal))
            {
                return VectorResult.Fail(vector.Id, "$: expected " + Describe(vector.ErrorCode, vector.ErrorMessage)
                    + ", actual " + Describe(error.Code, error.Message));
            }
            return VectorResult.Pass(vector.Id);
        }

        private static string Describe(int code, string message)
        {
            return "BenchError{code=" + code + ", message=\"" + message + "\"}";
        }
    }
}
