using System;
using System.IO;
using System.Text;
using System.Threading;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// The server role: bind, print the ready line once accepting, serve until SIGTERM, stop, exit 0. The exit is
    /// bounded (runner/PROTOCOL.md: within 5 seconds of SIGTERM): a stop that has not returned after
    /// <see cref="StopBound"/> (a framework waiting on a stuck connection) ends the process with Environment.Exit.
    /// </summary>
    public static class ServerMain
    {
        /// <summary>How long a graceful stop may take before the process exits regardless.</summary>
        public static readonly TimeSpan StopBound = TimeSpan.FromSeconds(3);

        public static int Run(Options options, IProtocolAdapter adapter)
        {
            IBenchServer server;
            int port;
            try
            {
                server = adapter.CreateServer(options);
                port = server.Start(options.Host, options.Port);
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("cannot start server: " + e.Message);
                return 1;
            }
            var ready = new System.Collections.Generic.Dictionary<string, object>
            {
                { "ready", true },
                { "port", port },
                { "facts", RuntimeFacts.Collect() },
            };
            var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            stdout.Write(JsonWriter.Write(ready) + "\n");
            stdout.Flush();
            TerminationSignal.Wait();
            StopWithin(server, StopBound, () => Environment.Exit(0));
            return 0;
        }

        /// <summary>
        /// Stops the server on a thread of its own; when that has not returned within <paramref name="bound"/>, says so
        /// on stderr and calls <paramref name="giveUp"/> (the process: Environment.Exit). True when the stop returned.
        /// </summary>
        public static bool StopWithin(IBenchServer server, TimeSpan bound, Action giveUp)
        {
            var stopper = new Thread(() =>
            {
                try
                {
                    server.Stop();
                }
                catch (Exception e)
                {
                    Console.Error.WriteLine("server stop failed: " + e.Message);
                }
            }) { IsBackground = true, Name = "server-stop" };
            stopper.Start();
            if (stopper.Join(bound))
            {
                return true;
            }
            Console.Error.WriteLine("server stop did not return within " + bound.TotalSeconds + " s: exiting anyway");
            giveUp();
            return false;
        }
    }
}
