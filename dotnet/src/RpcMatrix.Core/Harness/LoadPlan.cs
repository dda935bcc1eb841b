using System;
using System.Globalization;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// The fields of a load command (runner/PROTOCOL.md#load), checked: a field of the wrong type or out of range is
    /// refused with a message naming it. Times are kept in milliseconds as sent.
    /// </summary>
    public sealed class LoadPlan
    {
        /// <summary>
        /// Workers are threads and connections are sockets of this process: far above any load point a 2-core client
        /// drives, low enough that a typo cannot make thousands of either.
        /// </summary>
        public const int MaxWorkers = 4096;

        /// <summary>The longest time field taken (duration_ms, warmup_ms, late_ms, timeout_ms): a day.</summary>
        public const int MaxMs = 86400000;

        public const string Constant = "constant";
        public const string Poisson = "poisson";

        public int Connections { get; private set; }
        public int InFlight { get; private set; }
        public double DurationMs { get; private set; }
        public double WarmupMs { get; private set; }
        /// <summary>Calls per second; null: closed loop.</summary>
        public double? Rate { get; private set; }
        public string Arrival { get; private set; }
        public long Seed { get; private set; }
        public double LateMs { get; private set; }
        public double TimeoutMs { get; private set; }

        public bool OpenLoop { get { return Rate.HasValue; } }

        /// <summary>A plan in code (tests): the protocol's defaults for what is not given.</summary>
        public LoadPlan(double durationMs, int connections = 1, int? inFlight = null, double warmupMs = 0, double? rate = null,
            string arrival = Constant, long seed = 1, double lateMs = 1, double timeoutMs = 10000)
        {
            Connections = connections;
            InFlight = inFlight ?? connections;
            DurationMs = durationMs;
            WarmupMs = warmupMs;
            Rate = rate;
            Arrival = arrival;
            Seed = seed;
            LateMs = lateMs;
            TimeoutMs = timeoutMs;
            Check();
        }

        public static LoadPlan Of(Command command)
        {
            int connections = Count(command, "connections", 1);
            return new LoadPlan(
                durationMs: Positive(command, "duration_ms", null),
                connections: connections,
                inFlight: Count(command, "in_flight", connections),
                warmupMs: NonNegative(command, "warmup_ms", 0),
                rate: command.Has("rate") ? Positive(command, "rate", null) : (double?)null,
                arrival: command.Has("arrival") ? Text(command, "arrival") : Constant,
                seed: Integer(command, "seed", 1),
                lateMs: Positive(command, "late_ms", 1),
                timeoutMs: Positive(command, "timeout_ms", 10000));
        }

        private void Check()
        {
            Require(Connections >= 1 && Connections <= MaxWorkers, "connections", "must be 1 to " + MaxWorkers, Connections);
            Require(InFlight >= 1 && InFlight <= MaxWorkers, "in_flight", "must be 1 to " + MaxWorkers, InFlight);
            Require(DurationMs > 0 && DurationMs <= MaxMs, "duration_ms", "must be a positive number of at most " + MaxMs, DurationMs);
            Require(WarmupMs >= 0 && WarmupMs <= MaxMs, "warmup_ms", "must be a non-negative number of at most " + MaxMs, WarmupMs);
            Require(!Rate.HasValue || (Rate.Value > 0 && !double.IsInfinity(Rate.Value)), "rate", "must be a positive number", Rate);
            Require(Arrival == Constant || Arrival == Poisson, "arrival", "must be \"constant\" or \"poisson\"", Arrival);
            Require(LateMs > 0 && LateMs <= MaxMs, "late_ms", "must be a positive number of at most " + MaxMs, LateMs);
            Require(TimeoutMs > 0 && TimeoutMs <= MaxMs, "timeout_ms", "must be a positive number of at most " + MaxMs, TimeoutMs);
        }

        private static void Require(bool holds, string field, string rule, object value)
        {
            if (!holds)
            {
                throw new ArgumentException("load: \"" + field + "\" " + rule + ", got " + JsonWriter.Write(value));
            }
        }

        private static double Number(Command command, string key)
        {
            try
            {
                return command.Number(key, double.NaN);
            }
            catch (ArgumentException)
            {
                throw new ArgumentException("load: \"" + key + "\" must be a number, got " + command.Shown(key));
            }
        }

        private static double Positive(Command command, string key, double? absent)
        {
            if (!command.Has(key))
            {
                if (absent.HasValue)
                {
                    return absent.Value;
                }
                throw new ArgumentException("load: \"" + key + "\" is required (a positive number)");
            }
            double value = Number(command, key);
            if (!(value > 0) || double.IsInfinity(value))
            {
                throw new ArgumentException("load: \"" + key + "\" must be a positive number, got " + command.Shown(key));
            }
            return value;
        }

        private static double NonNegative(Command command, string key, double absent)
        {
            if (!command.Has(key))
            {
                return absent;
            }
            double value = Number(command, key);
            if (!(value >= 0) || double.IsInfinity(value))
            {
                throw new ArgumentException("load: \"" + key + "\" must be a non-negative number, got " + command.Shown(key));
            }
            return value;
        }

        private static long Integer(Command command, string key, long absent)
        {
            if (!command.Has(key))
            {
                return absent;
            }
            double value = Number(command, key);
            long result;
            if (value != Math.Floor(value) || !long.TryParse(command.Shown(key), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out result))
            {
                throw new ArgumentException("load: \"" + key + "\" must be an integer, got " + command.Shown(key));
            }
            return result;
        }

        private static int Count(Command command, string key, int absent)
        {
            if (!command.Has(key))
            {
                return absent;
            }
            double value = Number(command, key);
            if (value != Math.Floor(value) || value < 1 || value > MaxWorkers)
            {
                throw new ArgumentException("load: \"" + key + "\" must be an integer from 1 to " + MaxWorkers + ", got " + command.Shown(key));
            }
            return (int)value;
        }

        private static string Text(Command command, string key)
        {
            string text = command.Text(key);
            if (text == null)
            {
                throw new ArgumentException("load: \"" + key + "\" must be a string, got " + command.Shown(key));
            }
            return text;
        }
    }
}
