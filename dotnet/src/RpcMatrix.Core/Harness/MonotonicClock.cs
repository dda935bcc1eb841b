using System.Diagnostics;

namespace RpcMatrix.Core.Harness
{
    /// <summary>Stopwatch ticks to nanoseconds (Mono's Stopwatch ticks are 100 ns).</summary>
    public static class MonotonicClock
    {
        private static readonly double NanosecondsPerTick = 1e9 / Stopwatch.Frequency;

        /// <summary>The clock's resolution: 100 ns on Mono.</summary>
        public static readonly double TickNanoseconds = NanosecondsPerTick;

        public static long Now()
        {
            return Stopwatch.GetTimestamp();
        }

        public static long ElapsedNanoseconds(long start, long end)
        {
            return (long)((end - start) * NanosecondsPerTick);
        }

        public static long ElapsedMilliseconds(long start, long end)
        {
            return (end - start) * 1000 / Stopwatch.Frequency;
        }

        public static long TicksOf(long milliseconds)
        {
            return milliseconds * Stopwatch.Frequency / 1000;
        }
    }
}
