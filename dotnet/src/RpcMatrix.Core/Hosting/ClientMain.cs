using System;
using System.IO;
using System.Text;
using RpcMatrix.Core.Conformance;

namespace RpcMatrix.Core.Hosting
{
    /// <summary>The client role: runs the command loop of runner/PROTOCOL.md on stdin/stdout. Connects only on "connect".</summary>
    public static class ClientMain
    {
        public static int Run(Options options, IdlFiles idl, IProtocolAdapter adapter)
        {
            var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
            var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            output.NewLine = "\n";
            new CommandLoop(idl, options.Protocol, () => adapter.CreateClient(options)).Run(input, output);
            return 0;
        }
    }
}
