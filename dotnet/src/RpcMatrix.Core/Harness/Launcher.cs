using System;
using System.Collections.Generic;
using System.Globalization;
using System.Net;
using RpcMatrix.Core.Conformance;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// The one entry point: "server|client --protocol P ...". Looks P up in idl/protocols.json and hands the run
    /// to the adapter registered for P's family.
    /// </summary>
    public static class Launcher
    {
        private const string Usage = "usage: server|client --protocol P --host H --port N --idl DIR [--secrets DIR]";

        public static int Run(string[] args, IDictionary<string, IProtocolAdapter> adaptersByFamily)
        {
            CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
            string role = args.Length > 0 ? args[0] : "";
            if (role != "server" && role != "client")
            {
                Console.Error.WriteLine(Usage);
                return 2;
            }
            Options options;
            IdlFiles idl;
            IProtocolAdapter adapter;
            try
            {
                var line = new CommandLine(args, 1, "protocol", "host", "port", "idl", "secrets");
                idl = IdlFiles.Load(line.Required("idl"));
                options = Parse(line, idl.Registry);
                if (!adaptersByFamily.TryGetValue(options.Protocol.Family, out adapter))
                {
                    throw new ArgumentException("protocol '" + options.Protocol.Name + "' (family "
                        + options.Protocol.Family + ") is not implemented in dotnet");
                }
            }
            catch (Exception e)
            {
                // The message alone: the runner matches "protocol 'X' is not in idl/protocols.json".
                Console.Error.WriteLine("cannot start " + role + ": " + e.Message);
                return 1;
            }
            return role == "server"
                ? ServerMain.Run(options, adapter)
                : ClientMain.Run(options, idl, adapter);
        }

        private static Options Parse(CommandLine line, ProtocolRegistry registry)
        {
            var options = new Options
            {
                Protocol = registry.Get(line.Required("protocol")),
                HostText = line.Required("host"),
                Port = line.Port(),
                IdlDirectory = line.Required("idl"),
                SecretsDirectory = line.Optional("secrets"),
            };
            if (!IPAddress.TryParse(options.HostText, out options.Host))
            {
                throw new ArgumentException("--host must be an IP address, got " + options.HostText);
            }
            return options;
        }
    }
}
