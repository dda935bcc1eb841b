using System;
using System.Globalization;
using System.IO;
using System.Text;
using RpcMatrix.Core.Conformance;

namespace RpcMatrix.Core.Hosting
{
    /// <summary>"client --host H --port P --idl DIR": runs the command loop of runner/PROTOCOL.md on stdin/stdout.</summary>
    public static class ClientMain
    {
        public static int Run(string[] args, int start, Func<ClientOptions, IBenchClient> connect)
        {
            CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
            ClientOptions options;
            IdlFiles idl;
            try
            {
                var line = new CommandLine(args, start, "host", "port", "idl", "secrets");
                options = new ClientOptions
                {
                    Host = line.Required("host"),
                    Port = line.Port(),
                    IdlDirectory = line.Required("idl"),
                    SecretsDirectory = line.Optional("secrets"),
                };
                idl = IdlFiles.Load(options.IdlDirectory);
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("cannot start client: " + e.Message);
                return 1;
            }
            var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
            var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            output.NewLine = "\n";
            new CommandLoop(idl, () => connect(options)).Run(input, output);
            return 0;
        }
    }
}
