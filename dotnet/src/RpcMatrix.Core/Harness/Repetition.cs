using System;
using System.Collections.Generic;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Harness
{
    /// <summary>Timed loops: one measure repetition, and batch medians for the steady warm-up.</summary>
    public static class Repetition
    {
        /// <summary>
        /// Back-to-back calls, each timed alone: at least <paramref name="calls"/>, then more until
        /// <paramref name="minMs"/> has passed since the first started, never more than <paramref name="maxCalls"/>.
        /// </summary>
        public static ArraySegment<long> Measure(Func<IBench, object> call, IBench target, int calls, long minMs, int maxCalls)
        {
            int limit = Math.Max(0, maxCalls);
            int least = Math.Min(calls, limit);
            var durations = new long[limit];
            long minTicks = MonotonicClock.TicksOf(minMs);
            long first = MonotonicClock.Now();
            int n = 0;
            while (n < limit)
            {
                long start = MonotonicClock.Now();
                call(target);
                long end = MonotonicClock.Now();
                durations[n++] = MonotonicClock.ElapsedNanoseconds(start, end);
                if (n >= least && end - first >= minTicks)
                {
                    break;
                }
            }
            return new ArraySegment<long>(durations, 0, n);
        }

        public static long Median(long[] values)
        {
            if (values.Length == 0)
            {
                return 0;
            }
            var sorted = (long[])values.Clone();
            Array.Sort(sorted);
            int mid = sorted.Length / 2;
            return sorted.Length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
        }

        /// <summary>
        /// True when the last three medians are within tolerance: (max - min) / min, with min taken as at least one
        /// clock tick so that in-process calls shorter than a tick (median 0) can be steady too.
        /// </summary>
        public static bool Steady(IList<long> medians, double tolerance)
        {
            if (medians.Count < 3)
            {
                return false;
            }
            long min = long.MaxValue, max = long.MinValue;
            for (int i = medians.Count - 3; i < medians.Count; i++)
            {
                min = Math.Min(min, medians[i]);
                max = Math.Max(max, medians[i]);
            }
            return (max - min) / Math.Max(min, MonotonicClock.TickNanoseconds) <= tolerance;
        }
    }
}
