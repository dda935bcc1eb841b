using System;
using System.Globalization;
using System.IO;
using System.Net;
using System.Text;

namespace RpcMatrix.Core.Hosting
{
    /// <summary>
    /// "server --host H --port P": bind, print the ready line once accepting, serve until SIGTERM, stop, exit 0.
    /// </summary>
    public static class ServerMain
    {
        public static int Run(string[] args, int start, Func<IBenchServer> create)
        {
            CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
            IBenchServer server;
            int port;
            try
            {
                var options = new CommandLine(args, start, "host", "port");
                IPAddress host;
                if (!IPAddress.TryParse(options.Required("host"), out host))
                {
                    throw new ArgumentException("--host must be an IP address, got " + options.Required("host"));
                }
                server = create();
                port = server.Start(host, options.Port());
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("cannot start server: " + e.Message);
                return 1;
            }
            var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            stdout.Write("{\"ready\": true, \"port\": " + port.ToString(CultureInfo.InvariantCulture) + "}\n");
            stdout.Flush();
            TerminationSignal.Wait();
            server.Stop();
            return 0;
        }
    }
}
