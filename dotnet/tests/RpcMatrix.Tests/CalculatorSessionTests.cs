using System;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    /// <summary>The calculator sessions of Core: scripts, the timed session and the reference calculator.</summary>
    [TestFixture]
    public class CalculatorSessionTests
    {
        private static IdlFiles Idl()
        {
            return IdlFiles.Load(IdlPaths.Directory);
        }

        [Test]
        public void ReferenceCalculatorWrapsAndRefusesAfterRelease()
        {
            var c = new ReferenceCalculator();
            Assert.AreEqual(long.MaxValue, c.Add(long.MaxValue));
            Assert.AreEqual(long.MinValue, c.Add(1));
            c.Clear();
            Assert.AreEqual(0, c.Total());
            c.Release();
            Assert.Throws<ObjectDisposedException>(() => c.Total());
        }

        [Test]
        public void SessionVectorsPassOnCalculators()
        {
            IdlFiles idl = Idl();
            foreach (Vector vector in idl.Vectors.Where(v => v.Session != null))
            {
                VectorResult result = CalculatorSessions.Run(vector, new BenchWithCalculators());
                Assert.AreEqual("pass", result.Status, vector.Id + ": " + result.Reason);
            }
        }

        [Test]
        public void ClientWithoutRemoteObjectsAnswersError()
        {
            Vector vector = Idl().Vectors.First(v => v.Session != null);
            VectorResult result = CalculatorSessions.Run(vector, new ReferenceBench());
            Assert.AreEqual("error", result.Status);
            Assert.AreEqual("no remote objects", result.Reason);
        }

        [Test]
        public void ReleasedScriptFailsWhenTheObjectStaysAlive()
        {
            Vector vector = Idl().Vectors.First(v => v.Script == "released");
            VectorResult result = CalculatorSessions.Run(vector, new BenchWithCalculators(neverRelease: true));
            Assert.AreEqual("fail", result.Status);
            StringAssert.Contains("released calculator answered", result.Reason);
        }

        [Test]
        public void SessionWorkloadIsOneSessionPerCall()
        {
            Workload workload = Idl().Workloads["calculatorSession"];
            var prepared = new PreparedWorkload(workload);
            Assert.IsNull(prepared.Operation);
            var counting = new BenchWithCalculators();
            Assert.AreEqual(55L, prepared.Call(counting));
            // create, add(1)..add(10), total, release: N + 3 calls.
            Assert.AreEqual(13, counting.Calls);
            Assert.AreEqual(55L, prepared.Expected(new ReferenceBench()));
        }

        [Test]
        public void HandlerRunsTheSessionInProcess()
        {
            var prepared = new PreparedWorkload(Idl().Workloads["calculatorSession"]);
            Assert.AreEqual(55L, prepared.Call(new ReferenceBench()));
            Assert.IsNull(CalculatorSessions.Compare(55L, 55L));
            Assert.IsNotNull(CalculatorSessions.Compare(55L, 54L));
        }

        /// <summary>A Bench whose calculators count calls; optionally one whose release does nothing (a broken server).</summary>
        private sealed class BenchWithCalculators : OperationClient, ICalculatorClient
        {
            private readonly bool neverRelease;
            private readonly ReferenceBench bench = new ReferenceBench();

            public BenchWithCalculators(bool neverRelease = false)
            {
                this.neverRelease = neverRelease;
            }

            public int Calls;

            public ICalculator Create()
            {
                Calls++;
                return new Counted(this, new ReferenceCalculator());
            }

            public bool IsNoSuchObject(Exception e) { return e is ObjectDisposedException; }

            private sealed class Counted : ICalculator
            {
                private readonly BenchWithCalculators owner;
                private readonly ReferenceCalculator inner;
                public Counted(BenchWithCalculators owner, ReferenceCalculator inner) { this.owner = owner; this.inner = inner; }
                public long Add(long n) { owner.Calls++; return inner.Add(n); }
                public void Clear() { owner.Calls++; inner.Clear(); }
                public long Total() { owner.Calls++; return inner.Total(); }
                public void Release() { owner.Calls++; if (!owner.neverRelease) { inner.Release(); } }
            }

            protected override object Call(OperationInfo op, object[] args) { return op.Invoke(bench, args); }
            public override void Dispose() { }
        }
    }
}
