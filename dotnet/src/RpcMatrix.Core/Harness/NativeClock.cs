using System;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;
using Mono.Unix.Native;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// What the load command needs from the operating system and the class libraries do not give precisely: the
    /// process's CPU time in nanoseconds (clock_gettime(CLOCK_PROCESS_CPUTIME_ID), as Python's process_time_ns; Mono's
    /// Process.TotalProcessorTime moves in 10 ms steps) and a sleep shorter than a millisecond (nanosleep, through
    /// Mono.Posix; Thread.Sleep counts whole milliseconds). Each falls back to the portable call where the native one
    /// is missing. Linux and Mono specific, like TerminationSignal.
    /// </summary>
    public static class NativeClock
    {
        /// <summary>Linux's CLOCK_PROCESS_CPUTIME_ID.</summary>
        private const int ProcessCpuClock = 2;

        private static readonly double NanosecondsPerTick = 1e9 / Stopwatch.Frequency;
        private static bool nativeCpu = true;
        private static bool nativeSleep = true;

        [StructLayout(LayoutKind.Sequential)]
        private struct TimeSpec
        {
            // time_t and long: the machine word on Linux
            public IntPtr Seconds;
            public IntPtr Nanoseconds;
        }

        [DllImport("libc", EntryPoint = "clock_gettime", SetLastError = true)]
        private static extern int ClockGetTime(int clock, out TimeSpec time);

        /// <summary>CPU time of every thread of the process so far, in nanoseconds.</summary>
        public static long ProcessCpuNanoseconds()
        {
            if (nativeCpu)
            {
                try
                {
                    TimeSpec time;
                    if (ClockGetTime(ProcessCpuClock, out time) == 0)
                    {
                        return (long)time.Seconds * 1000000000L + (long)time.Nanoseconds;
                    }
                }
                catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
                {
                }
                nativeCpu = false;
            }
            using (Process self = Process.GetCurrentProcess())
            {
                return self.TotalProcessorTime.Ticks * 100L;
            }
        }

        /// <summary>Sleeps about <paramref name="ticks"/> Stopwatch ticks (nanosleep's precision: tens of microseconds).</summary>
        public static void Sleep(long ticks)
        {
            if (ticks <= 0)
            {
                return;
            }
            long nanoseconds = (long)(ticks * NanosecondsPerTick);
            if (nativeSleep)
            {
                try
                {
                    var request = new Timespec { tv_sec = nanoseconds / 1000000000L, tv_nsec = nanoseconds % 1000000000L };
                    var remaining = new Timespec();
                    Syscall.nanosleep(ref request, ref remaining); // interrupted early (EINTR): the caller sleeps again
                    return;
                }
                catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
                {
                    nativeSleep = false;
                }
            }
            long milliseconds = nanoseconds / 1000000L;
            if (milliseconds > 0)
            {
                Thread.Sleep((int)Math.Min(milliseconds, int.MaxValue));
            }
            else
            {
                Thread.Yield();
            }
        }

        /// <summary>Returns at or after <paramref name="deadline"/> (a MonotonicClock reading), sleeping meanwhile.</summary>
        public static void SleepUntil(long deadline)
        {
            while (true)
            {
                long now = MonotonicClock.Now();
                if (now >= deadline)
                {
                    return;
                }
                Sleep(deadline - now);
            }
        }
    }
}
