using System;
using System.IO;
using System.Text;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Core.Hosting
{
    /// <summary>
    /// The server role: bind, print the ready line once accepting, serve until SIGTERM, stop, exit 0.
    /// </summary>
    public static class ServerMain
    {
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
            server.Stop();
            return 0;
        }
    }
}
