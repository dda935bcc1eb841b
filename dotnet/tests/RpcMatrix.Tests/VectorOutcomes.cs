using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// What a conformant client and server of a protocol answer the vectors of idl/vectors.json, exactly: in file
    /// order, each vector the protocol can carry passes, and each that needs a capability the protocol lacks (its own
    /// needs or its operation's, per idl/protocols.json) is unsupported.
    /// </summary>
    public static class VectorOutcomes
    {
        public static void AssertExact(IdlFiles idl, Protocol protocol, IList<VectorResult> results)
        {
            List<string> expected = idl.Vectors.Select(v => v.Id + ": " + (Carries(protocol, v) ? "pass" : "unsupported")).ToList();
            List<string> actual = results.Select(r => r.Id + ": " + r.Status
                + (r.Status == "pass" || r.Status == "unsupported" ? "" : " (" + r.Reason + ")")).ToList();
            int carried = idl.Vectors.Count(v => Carries(protocol, v));
            Assert.AreEqual(carried, results.Count(r => r.Status == "pass"), protocol.Name + " carries " + carried + " of the "
                + idl.Vectors.Count + " vectors, all must pass: " + string.Join("; ", actual.Except(expected)));
            Assert.AreEqual(expected, actual);
        }

        private static bool Carries(Protocol protocol, Vector vector)
        {
            OperationInfo op = Operations.ByName(vector.Op);
            IEnumerable<string> needs = op == null ? vector.Needs : vector.Needs.Concat(op.Needs);
            return !needs.Any(protocol.Lacks.ContainsKey);
        }
    }
}
