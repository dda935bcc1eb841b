using System;
using System.Diagnostics;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Reference
{
    /// <summary>
    /// A known slowdown, for calibrating the comparison of runs (runner/README.md, "Calibrating compare"): when the
    /// runner sets RPCMATRIX_SERVER_SPIN_US for a server, every contract call that server answers first busy-waits
    /// that many microseconds. Test-only: a run made with it is marked as such in its report.
    /// </summary>
    public static class InjectedSpin
    {
        public const string Variable = "RPCMATRIX_SERVER_SPIN_US";

        /// <summary>The bench a server answers with: the reference, behind the spin when the environment asks.</summary>
        public static IBench Served()
        {
            return Around(new ReferenceBench(), Environment.GetEnvironmentVariable(Variable));
        }

        /// <summary>The bench itself for an empty value or 0; else a bench that spins before each call.</summary>
        public static IBench Around(IBench bench, string value)
        {
            long ticks = Ticks(value);
            return ticks == 0 ? bench : new SpinningBench(bench, ticks);
        }

        /// <summary>Stopwatch ticks of the value's microseconds; throws ArgumentException on anything else.</summary>
        public static long Ticks(string value)
        {
            if (string.IsNullOrWhiteSpace(value))
            {
                return 0;
            }
            long micros;
            string text = value.Trim();
            if (!long.TryParse(text, System.Globalization.NumberStyles.None,
                    System.Globalization.CultureInfo.InvariantCulture, out micros) || micros > 1000000)
            {
                throw new ArgumentException(Variable + " takes whole microseconds (0 to 1000000), not '" + value + "'");
            }
            return micros * Stopwatch.Frequency / 1000000;
        }

        /// <summary>Busy, not asleep: the slowdown costs CPU on the server as a slower handler would.</summary>
        internal static void Spin(long ticks)
        {
            long end = Stopwatch.GetTimestamp() + ticks;
            while (Stopwatch.GetTimestamp() < end)
            {
            }
        }

        /// <summary>Every call spins, then goes to the bench.</summary>
        private sealed class SpinningBench : ForwardingBench
        {
            private readonly IBench bench;
            private readonly long ticks;

            internal SpinningBench(IBench bench, long ticks)
            {
                this.bench = bench;
                this.ticks = ticks;
            }

            protected override IBench Next()
            {
                Spin(ticks);
                return bench;
            }
        }
    }
}
