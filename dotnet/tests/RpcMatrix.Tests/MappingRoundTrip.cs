using System;
using System.Collections.Generic;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// Every value the vectors carry on a protocol (each argument, and the reference's answer) through a family's
    /// mapping to the wire and back, judged by the vectors' comparison rules: a mapping that cannot carry a type the
    /// operation table uses, or that changes a value, fails here rather than on a call.
    /// </summary>
    internal static class MappingRoundTrip
    {
        /// <param name="roundTrip">(contract type, value) to the wire and back.</param>
        public static void Check(string protocol, Func<string, object, object> roundTrip)
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            Protocol p = idl.Registry.Get(protocol);
            var reference = new ReferenceBench();
            var failures = new List<string>();
            var types = new HashSet<string>();
            foreach (Vector vector in idl.Vectors)
            {
                OperationInfo op = Operations.ByName(vector.Op);
                if (op == null || op.IsStream || vector.Attack != null || IdlFiles.UnsupportedReason(p, vector.Needs, op) != null)
                {
                    continue;
                }
                object[] args = ValueDecoder.DecodeArguments(op.ParamTypes, vector.Args);
                for (int i = 0; i < args.Length; i++)
                {
                    Same(vector.Id + " " + op.ParamNames[i], op.ParamTypes[i], args[i], roundTrip, failures, types);
                }
                object result;
                try
                {
                    result = op.Invoke(reference, args);
                }
                catch (BenchError)
                {
                    continue;
                }
                Same(vector.Id + " result", op.Returns, result, roundTrip, failures, types);
            }
            Assert.IsEmpty(failures, string.Join("\n", failures));
            foreach (OperationInfo op in Operations.All)
            {
                if (!op.IsStream)
                {
                    CollectionAssert.IsSubsetOf(op.ParamTypes, types, op.Name + ": a parameter type no vector carried");
                    CollectionAssert.Contains(types, op.Returns, op.Name + ": a return type no vector carried");
                }
            }
        }

        /// <summary>
        /// Every vector's call through a client-side and server-side binding of the table, in memory, against the
        /// reference: the result (or the BenchError) must be the reference's.
        /// </summary>
        /// <param name="call">(operation, arguments) to the wire, served by a ReferenceBench, and back.</param>
        public static void CheckCalls(string protocol, Func<OperationInfo, object[], object> call)
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            Protocol p = idl.Registry.Get(protocol);
            var reference = new ReferenceBench();
            var failures = new List<string>();
            var operations = new HashSet<string>();
            foreach (Vector vector in idl.Vectors)
            {
                OperationInfo op = Operations.ByName(vector.Op);
                if (op == null || op.IsStream || vector.Attack != null || IdlFiles.UnsupportedReason(p, vector.Needs, op) != null)
                {
                    continue;
                }
                operations.Add(op.Name);
                object[] args = ValueDecoder.DecodeArguments(op.ParamTypes, vector.Args);
                object expected, actual;
                string expectedOutcome = Outcome(() => op.Invoke(reference, args), out expected);
                string actualOutcome = Outcome(() => call(op, args), out actual);
                string difference = expectedOutcome != actualOutcome ? "expected " + expectedOutcome + ", actual " + actualOutcome
                    : expectedOutcome == "a value" ? ValueComparer.Compare(op.Returns, expected, actual, "$", 0) : null;
                if (difference != null)
                {
                    failures.Add(vector.Id + ": " + difference);
                }
            }
            Assert.IsEmpty(failures, string.Join("\n", failures));
            foreach (OperationInfo op in Operations.All)
            {
                Assert.IsTrue(op.IsStream || operations.Contains(op.Name), op.Name + ": no vector called it");
            }
        }

        private static string Outcome(Func<object> call, out object value)
        {
            value = null;
            try
            {
                value = call();
                return "a value";
            }
            catch (BenchError e)
            {
                return "BenchError{" + e.Code + ", " + e.Message + "}";
            }
            catch (Exception e)
            {
                return e.GetType().Name + ": " + e.Message;
            }
        }

        private static void Same(string what, string type, object value, Func<string, object, object> roundTrip, List<string> failures,
            HashSet<string> types)
        {
            types.Add(type);
            try
            {
                string difference = ValueComparer.Compare(type, value, roundTrip(type, value), "$", 0);
                if (difference != null)
                {
                    failures.Add(what + ": " + difference);
                }
            }
            catch (Exception e)
            {
                failures.Add(what + ": " + e.GetType().Name + ": " + e.Message);
            }
        }
    }
}
