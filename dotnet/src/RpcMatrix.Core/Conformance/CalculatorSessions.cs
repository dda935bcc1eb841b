using System;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>
    /// The calculator's session vectors (session, isolation, released) and the calculatorSession workload's one
    /// timed sample, written once for every protocol whose client is an ICalculatorClient (CONTRACT.md#vectors).
    /// </summary>
    public static class CalculatorSessions
    {
        public const string NoRemoteObjects = "no remote objects";

        private static readonly ReferenceCalculatorFactory InProcess = new ReferenceCalculatorFactory();

        /// <summary>
        /// The calculators behind a Bench: the client itself when it has remote references, the in-process reference
        /// for the reference Bench (the handler command); otherwise NotSupportedException "no remote objects".
        /// </summary>
        public static ICalculatorClient Of(IBench bench)
        {
            var calculators = bench as ICalculatorClient;
            if (calculators != null)
            {
                return calculators;
            }
            if (bench is ReferenceBench)
            {
                return InProcess;
            }
            throw new NotSupportedException(NoRemoteObjects);
        }

        /// <summary>One calculatorSession sample: create, add(1) .. add(n), total, release; answers the total.</summary>
        public static long Session(ICalculatorClient calculators, int n)
        {
            ICalculator c = calculators.Create();
            for (long i = 1; i <= n; i++)
            {
                c.Add(i);
            }
            long total = c.Total();
            c.Release();
            return total;
        }

        /// <summary>Binds the session workload like OperationInfo.Bind binds an operation.</summary>
        public static Func<IBench, object> Bind(string session, object[] args)
        {
            if (session != "calculator" || args.Length != 1)
            {
                throw new ArgumentException("unknown session workload " + session + " with " + args.Length + " arguments");
            }
            int n = (int)args[0];
            return b => Session(Of(b), n);
        }

        public static string Compare(object expected, object actual)
        {
            return Equals(expected, actual) ? null : "$: expected total " + expected + ", actual " + actual;
        }

        /// <summary>Runs a session vector's script on the remote calculators; the Bench answers the closing ping.</summary>
        public static VectorResult Run(Vector vector, IBench remote)
        {
            var calculators = remote as ICalculatorClient;
            if (calculators == null)
            {
                return VectorResult.Error(vector.Id, NoRemoteObjects);
            }
            try
            {
                string difference;
                switch (vector.Script)
                {
                    case "session": difference = SessionScript(calculators); break;
                    case "isolation": difference = IsolationScript(calculators); break;
                    case "released": difference = ReleasedScript(calculators, remote); break;
                    default: return VectorResult.Error(vector.Id, "unknown script " + vector.Script);
                }
                return difference == null ? VectorResult.Pass(vector.Id) : VectorResult.Fail(vector.Id, difference);
            }
            catch (Exception e)
            {
                return VectorResult.Error(vector.Id, Messages.Of(e));
            }
        }

        private static string SessionScript(ICalculatorClient calculators)
        {
            ICalculator c = calculators.Create();
            string difference = Expect("add(5)", 5, c.Add(5))
                ?? Expect("add(-2)", 3, c.Add(-2))
                ?? Expect("total()", 3, c.Total());
            if (difference != null)
            {
                return difference;
            }
            c.Clear();
            difference = Expect("total() after clear()", 0, c.Total())
                ?? Expect("add(9223372036854775807)", long.MaxValue, c.Add(long.MaxValue));
            c.Release();
            return difference;
        }

        private static string IsolationScript(ICalculatorClient calculators)
        {
            ICalculator a = calculators.Create();
            ICalculator b = calculators.Create();
            a.Add(3);
            b.Add(4);
            string difference = Expect("a.total()", 3, a.Total()) ?? Expect("b.total()", 4, b.Total());
            a.Release();
            b.Release();
            return difference;
        }

        private static string ReleasedScript(ICalculatorClient calculators, IBench remote)
        {
            ICalculator c = calculators.Create();
            c.Release();
            try
            {
                long total = c.Total();
                return "$: total() on a released calculator answered " + total + " instead of the no-such-object error";
            }
            catch (Exception e)
            {
                if (!calculators.IsNoSuchObject(e))
                {
                    return "$: total() on a released calculator raised " + Messages.Of(e) + ", not the no-such-object error";
                }
            }
            remote.Ping();
            return null;
        }

        private static string Expect(string step, long expected, long actual)
        {
            return expected == actual ? null : "$." + step + ": expected " + expected + ", actual " + actual;
        }
    }
}
