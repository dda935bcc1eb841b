using System;
using System.IO;
using System.Net;
using System.Text;
using RpcMatrix.Core.Conformance;

namespace RpcMatrix.Core.Harness
{
    /// <summary>The client role: runs the command loop of runner/PROTOCOL.md on stdin/stdout. Connects only on "connect".</summary>
    public static class ClientMain
    {
        public static int Run(Options options, IdlFiles idl, IProtocolAdapter adapter)
        {
            var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
            var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            output.NewLine = "\n";
            var loop = new CommandLoop(idl, options.Protocol, () => adapter.CreateClient(options));
            loop.Retarget = (host, port) =>
            {
                if (host != null)
                {
                    IPAddress address;
                    if (!IPAddress.TryParse(host, out address))
                    {
                        throw new ArgumentException("\"host\" must be an IP address, got " + host);
                    }
                    options.HostText = host;
                    options.Host = address;
                }
                options.Port = port;
            };
            loop.Run(input, output);
            return 0;
        }
    }
}
