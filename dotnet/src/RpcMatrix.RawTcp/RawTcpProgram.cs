using System;
using RpcMatrix.Core.Hosting;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.RawTcp
{
    /// <summary>mono RpcMatrix.RawTcp.exe server|client ...</summary>
    public static class RawTcpProgram
    {
        public static int Main(string[] args)
        {
            string role = args.Length > 0 ? args[0] : "";
            int status;
            switch (role)
            {
                case "server":
                    status = ServerMain.Run(args, 1, () => new RawTcpServer(new ReferenceBench()));
                    break;
                case "client":
                    status = ClientMain.Run(args, 1, o => new RawTcpBenchClient(o.Host, o.Port));
                    break;
                default:
                    Console.Error.WriteLine("usage: RpcMatrix.RawTcp.exe server --host H --port P | client --host H --port P --idl DIR");
                    return 2;
            }
            // Connection threads are background threads; exit now rather than wait for the runtime to reap them.
            Environment.Exit(status);
            return status;
        }
    }
}
