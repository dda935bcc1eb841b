using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Reflection;
using System.Threading;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// The load command (runner/PROTOCOL.md#load): many calls in flight, closed or open loop; Python's
    /// rpcmatrix.harness.load, the reference, answer for answer.
    ///
    /// Closed loop: <c>in_flight</c> workers each make one call after another; a call's latency is its service time.
    /// Open loop: calls are due at intended times (constant spacing, or Poisson arrivals at <c>rate</c> per second from
    /// <c>seed</c>), one schedule for all workers: a free worker takes the next due time (an idle worker helps a stuck
    /// one), waits until it and sends. Latency runs from the intended time (coordinated omission corrected, as wrk2
    /// does), service time from the actual send, and their difference is the dispatch delay. A call sent more than
    /// <c>late_ms</c> after its intended time is late; one answered more than <c>timeout_ms</c> after it is a time-out;
    /// a time still due when the window ends is dropped, not sent late. Calls whose intended time falls in the warm-up
    /// are made and not recorded; failed calls are counted and not timed.
    ///
    /// Workers are threads (System.Threading.Thread), each with its own counts and sample buffers (no lock per call;
    /// only taking an open loop's next due time is shared). HdrHistogram for .NET is published only on NuGet, so the
    /// answer carries raw samples (<c>latency_samples_ns</c>, <c>service_samples_ns</c>, <c>dispatch_samples_ns</c>: one
    /// integer per recorded call, in nanoseconds, clamped to the histograms' 1 ns to 60 s), which the runner records into
    /// the same histograms. Timing is the Stopwatch (100 ns ticks on Mono).
    /// </summary>
    public static class Load
    {
        /// <summary>The histograms' range (runner/PROTOCOL.md#load): 1 ns to 60 s.</summary>
        public const long LowestNs = 1, HighestNs = 60000000000L;

        /// <summary>
        /// Recorded calls kept over all workers (three longs each): 2 million is 48 MB of samples, over a minute of
        /// Mono's fastest client on this suite's machines. A call past it is counted and answered as "unrecorded".
        /// </summary>
        public const int MaxRecorded = 2000000;

        private static readonly double NanosecondsPerTick = 1e9 / Stopwatch.Frequency;

        /// <summary>
        /// Runs the load; <paramref name="makeCall"/>(worker) gives worker <c>worker</c>'s call (on its connection).
        /// Returns the answer's fields (without "ok"). client_cpu_ns covers this run; the command loop widens it to the
        /// whole command.
        /// </summary>
        public static Dictionary<string, object> Run(LoadPlan plan, Func<int, Action> makeCall)
        {
            var calls = new Action[plan.InFlight];
            for (int w = 0; w < calls.Length; w++)
            {
                calls[w] = makeCall(w);
            }
            // Mono's HTTP clients (HttpWebRequest, under WCF too) complete each call on the thread pool, WCF's blocking
            // a pool thread in a synchronous write for each call in flight, and the pool's minimum is one thread per
            // CPU, above which it grows by a thread every half second: 4 workers of the SOAP client made no call in a
            // 1.3 s point. The minimum is raised by two threads per worker for the command, as Microsoft's guidance for
            // bursts of blocking calls (ThreadPool.SetMinThreads) has it, and restored after (8 and more workers still
            // stall: dotnet/manifest.json, soap11).
            int savedWorkers, savedPorts;
            ThreadPool.GetMinThreads(out savedWorkers, out savedPorts);
            ThreadPool.SetMinThreads(savedWorkers + 2 * plan.InFlight, savedPorts + 2 * plan.InFlight);
            try
            {
                long cpuBefore = NativeClock.ProcessCpuNanoseconds();
                var run = new LoadRun(plan, calls);
                run.Start();
                int hung = run.Join();
                long finished = MonotonicClock.Now();
                long cpu = NativeClock.ProcessCpuNanoseconds() - cpuBefore;
                return run.Answer(hung, finished, cpu);
            }
            finally
            {
                ThreadPool.SetMinThreads(savedWorkers, savedPorts);
            }
        }

        /// <summary>Mono's version as `mono --version` prints it, or the CLR's where Mono.Runtime is absent.</summary>
        public static string RuntimeVersion()
        {
            Type mono = Type.GetType("Mono.Runtime");
            MethodInfo displayName = mono == null ? null : mono.GetMethod("GetDisplayName", BindingFlags.NonPublic | BindingFlags.Static);
            object shown = displayName == null ? null : displayName.Invoke(null, null);
            return shown != null ? "Mono " + shown : ".NET " + Environment.Version;
        }

        internal static long ToNanoseconds(long ticks)
        {
            return Math.Min(Math.Max((long)(ticks * NanosecondsPerTick), LowestNs), HighestNs);
        }

        private static long TicksOf(double milliseconds)
        {
            return (long)(milliseconds * Stopwatch.Frequency / 1000.0);
        }

        /// <summary>One command's run: its clock marks, schedule, workers and their tallies.</summary>
        private sealed class LoadRun
        {
            private readonly LoadPlan plan;
            private readonly Action[] calls;
            private readonly Tally[] tallies;
            private readonly Thread[] threads;
            private readonly ManualResetEvent go = new ManualResetEvent(false);
            private readonly long lateTicks;
            private readonly long timeoutTicks;
            private Schedule schedule;
            // Set before `go` is, read by the workers after it.
            private long start, recordFrom, end;

            public LoadRun(LoadPlan plan, Action[] calls)
            {
                this.plan = plan;
                this.calls = calls;
                lateTicks = TicksOf(plan.LateMs);
                timeoutTicks = TicksOf(plan.TimeoutMs);
                tallies = new Tally[calls.Length];
                threads = new Thread[calls.Length];
                int perWorker = (MaxRecorded + calls.Length - 1) / calls.Length;
                for (int w = 0; w < calls.Length; w++)
                {
                    tallies[w] = new Tally(perWorker);
                    int worker = w;
                    threads[w] = new Thread(() => Work(worker)) { Name = "load-" + w, IsBackground = true };
                }
            }

            /// <summary>Starts every worker, then fixes the clock marks and lets them go together.</summary>
            public void Start()
            {
                try
                {
                    foreach (Thread thread in threads)
                    {
                        thread.Start();
                    }
                }
                catch
                {
                    end = long.MinValue; // the workers started leave at once
                    go.Set();
                    throw;
                }
                start = MonotonicClock.Now() + TicksOf(1); // every worker awake before the first intended send
                recordFrom = start + TicksOf(plan.WarmupMs);
                end = recordFrom + TicksOf(plan.DurationMs);
                schedule = plan.OpenLoop ? new Schedule(plan, start) : null;
                go.Set();
            }

            /// <summary>
            /// Waits for the workers until timeout_ms past the window; returns how many are still in a call (hung).
            /// </summary>
            public int Join()
            {
                long deadline = end + timeoutTicks;
                int hung = 0;
                foreach (Thread thread in threads)
                {
                    long left = Math.Max(0, deadline - MonotonicClock.Now());
                    if (!thread.Join(TimeSpan.FromMilliseconds(Math.Ceiling(left * 1000.0 / Stopwatch.Frequency))))
                    {
                        hung++;
                    }
                }
                return hung;
            }

            private void Work(int worker)
            {
                go.WaitOne();
                Action call = calls[worker];
                Tally tally = tallies[worker];
                while (true)
                {
                    long intended;
                    if (schedule != null)
                    {
                        if (MonotonicClock.Now() >= end)
                        {
                            return; // what is still due is dropped, not sent late after the window
                        }
                        intended = schedule.Take();
                        if (intended >= end)
                        {
                            return;
                        }
                        NativeClock.SleepUntil(intended);
                    }
                    else
                    {
                        intended = MonotonicClock.Now();
                        if (intended >= end)
                        {
                            return;
                        }
                    }
                    long sent = MonotonicClock.Now();
                    string failed = null;
                    try
                    {
                        call();
                    }
                    catch (Exception e) // counted; the worker goes on
                    {
                        failed = Messages.Of(e);
                    }
                    long done = MonotonicClock.Now();
                    if (intended < recordFrom)
                    {
                        continue;
                    }
                    tally.Calls++;
                    if (failed != null)
                    {
                        tally.Errors++;
                        tally.FirstError = tally.FirstError ?? failed;
                        continue;
                    }
                    if (done - intended > timeoutTicks)
                    {
                        tally.Timeouts++;
                    }
                    if (sent - intended > lateTicks)
                    {
                        tally.Late++;
                    }
                    tally.Record(done - intended, done - sent, sent - intended);
                }
            }

            public Dictionary<string, object> Answer(int hung, long finished, long cpuNs)
            {
                long calls = 0, errors = 0, timeouts = 0, late = 0, unrecorded = 0;
                string firstError = null;
                var counts = new int[tallies.Length];
                int recorded = 0;
                for (int w = 0; w < tallies.Length; w++)
                {
                    // A hung worker may still write; what it published is complete (Tally.Published).
                    Tally tally = tallies[w];
                    counts[w] = tally.Published;
                    recorded += counts[w];
                    calls += tally.Calls;
                    errors += tally.Errors;
                    timeouts += tally.Timeouts;
                    late += tally.Late;
                    unrecorded += tally.Unrecorded;
                    firstError = firstError ?? tally.FirstError;
                }
                var latency = new long[recorded];
                var service = new long[recorded];
                var dispatch = new long[recorded];
                int at = 0;
                for (int w = 0; w < tallies.Length; w++)
                {
                    at = tallies[w].CopyTo(counts[w], latency, service, dispatch, at);
                }
                double windowS = plan.DurationMs / 1000.0;
                var answer = new Dictionary<string, object>
                {
                    { "mode", plan.OpenLoop ? "open" : "closed" },
                    { "connections", plan.Connections },
                    { "in_flight", plan.InFlight },
                    { "duration_ms", plan.DurationMs },
                    { "elapsed_ms", Math.Round(MonotonicClock.ElapsedNanoseconds(recordFrom, finished) / 1e6, 3) },
                    { "calls", calls },
                    { "errors", errors },
                    { "timeouts", timeouts + hung },
                    { "hung", hung },
                    { "late", late },
                    { "dropped", schedule != null ? schedule.DueBefore(end) : 0 },
                    { "achieved_per_s", Math.Round((calls - errors) / windowS, 3) },
                    { "client_cpu_ns", cpuNs },
                    { "latency_samples_ns", latency },
                    { "service_samples_ns", service },
                    { "dispatch_samples_ns", dispatch },
                    { "generator", Generator(plan) },
                };
                if (plan.OpenLoop)
                {
                    answer["offered_per_s"] = plan.Rate.Value;
                    answer["arrival"] = plan.Arrival;
                    answer["seed"] = plan.Seed;
                }
                if (firstError != null)
                {
                    answer["first_error"] = firstError.Length <= 300 ? firstError : firstError.Substring(0, 300);
                }
                if (unrecorded > 0)
                {
                    answer["unrecorded"] = unrecorded; // answered calls past MaxRecorded: counted, not in the samples
                }
                return answer;
            }
        }

        private static Dictionary<string, object> Generator(LoadPlan plan)
        {
            return new Dictionary<string, object>
            {
                { "name", "RpcMatrix.Core.Harness.Load" },
                { "version", RuntimeVersion() },
                { "threads", plan.InFlight },
                { "histogram", "samples" },
                { "clock", "Stopwatch" },
                { "clock_tick_ns", 1e9 / Stopwatch.Frequency },
            };
        }

        /// <summary>
        /// The intended send times of an open loop, in Stopwatch ticks, handed out in order to whichever worker asks
        /// first. Poisson gaps are exponential draws from the contract's SplitMix64 seeded with <c>seed</c> (the same
        /// seed gives the same schedule on every run of this client; Python draws from its own random.Random).
        /// </summary>
        private sealed class Schedule
        {
            private readonly object gate = new object();
            private readonly long start;
            private readonly double interval; // ticks between calls, on average for Poisson
            private readonly bool poisson;
            private readonly long seed;
            private readonly SplitMix64 random;
            private double next;
            private long handed;

            public Schedule(LoadPlan plan, long start)
            {
                this.start = start;
                interval = Stopwatch.Frequency / plan.Rate.Value;
                poisson = plan.Arrival == LoadPlan.Poisson;
                seed = plan.Seed;
                random = new SplitMix64(seed);
                next = start;
            }

            public long Take()
            {
                lock (gate)
                {
                    long due = (long)next;
                    handed++;
                    // constant: from the start each time, so that no rounding accumulates
                    next = poisson ? next + Gap(random) : start + handed * interval;
                    return due;
                }
            }

            /// <summary>Intended sends before <paramref name="end"/> not handed out (the dropped ones), without advancing.</summary>
            public long DueBefore(long end)
            {
                lock (gate)
                {
                    if (next >= end)
                    {
                        return 0;
                    }
                    if (!poisson)
                    {
                        // times start + k * interval below end: k < (end - start) / interval
                        long total = (long)Math.Ceiling((end - start) / interval);
                        return Math.Max(0, total - handed);
                    }
                    var replay = new SplitMix64(seed);
                    for (long i = 0; i < handed; i++)
                    {
                        replay.Next();
                    }
                    long count = 0;
                    double at = next;
                    const long Bound = 10000000; // past it, the expected count of what remains
                    while (at < end && count < Bound)
                    {
                        count++;
                        at += Gap(replay);
                    }
                    return at < end ? count + (long)((end - at) / interval) : count;
                }
            }

            private double Gap(SplitMix64 generator)
            {
                return -Math.Log(1.0 - generator.NextDouble()) * interval;
            }
        }

        /// <summary>
        /// One worker's counts and samples (Stopwatch ticks), written by its thread alone and read after the run.
        /// Samples go into chunks allocated as needed (no copying, none on the large-object heap) up to a bound; the
        /// count of complete samples is published after each so that a hung worker's buffer can be read while it runs.
        /// </summary>
        private sealed class Tally
        {
            private const int ChunkSize = 8192;
            private readonly long[][] latency, service, dispatch;
            private readonly int capacity;
            private int count;

            public long Calls, Errors, Timeouts, Late, Unrecorded;
            public string FirstError;

            public Tally(int capacity)
            {
                this.capacity = capacity;
                int chunks = (capacity + ChunkSize - 1) / ChunkSize;
                latency = new long[chunks][];
                service = new long[chunks][];
                dispatch = new long[chunks][];
            }

            public int Published { get { return Volatile.Read(ref count); } }

            public void Record(long latencyTicks, long serviceTicks, long dispatchTicks)
            {
                int n = count;
                if (n >= capacity)
                {
                    Unrecorded++;
                    return;
                }
                int chunk = n / ChunkSize, slot = n % ChunkSize;
                if (slot == 0 && latency[chunk] == null)
                {
                    latency[chunk] = new long[ChunkSize];
                    service[chunk] = new long[ChunkSize];
                    dispatch[chunk] = new long[ChunkSize];
                }
                latency[chunk][slot] = latencyTicks;
                service[chunk][slot] = serviceTicks;
                dispatch[chunk][slot] = dispatchTicks;
                Volatile.Write(ref count, n + 1);
            }

            /// <summary>The first <paramref name="n"/> samples, in nanoseconds, into the arrays from <paramref name="at"/>; returns the next index.</summary>
            public int CopyTo(int n, long[] latencyNs, long[] serviceNs, long[] dispatchNs, int at)
            {
                for (int i = 0; i < n; i++, at++)
                {
                    int chunk = i / ChunkSize, slot = i % ChunkSize;
                    latencyNs[at] = ToNanoseconds(latency[chunk][slot]);
                    serviceNs[at] = ToNanoseconds(service[chunk][slot]);
                    dispatchNs[at] = ToNanoseconds(dispatch[chunk][slot]);
                }
                return at;
            }
        }
    }
}
