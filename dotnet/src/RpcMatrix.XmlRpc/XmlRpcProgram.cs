using System;
using RpcMatrix.Core.Hosting;
using RpcMatrix.Core.Reference;
using RpcMatrix.XmlRpc.Bench;

namespace RpcMatrix.XmlRpc
{
    /// <summary>mono RpcMatrix.XmlRpc.exe server|client ...</summary>
    public static class XmlRpcProgram
    {
        public static int Main(string[] args)
        {
            string role = args.Length > 0 ? args[0] : "";
            int status;
            switch (role)
            {
                case "server":
                    status = ServerMain.Run(args, 1, () => new XmlRpcBenchServer(new ReferenceBench()));
                    break;
                case "client":
                    status = ClientMain.Run(args, 1, o => new XmlRpcBenchClient(o.Host, o.Port));
                    break;
                default:
                    Console.Error.WriteLine("usage: RpcMatrix.XmlRpc.exe server --host H --port P | client --host H --port P --idl DIR");
                    return 2;
            }
            // Listener threads may still be blocked in the runtime; exit now rather than wait for them.
            Environment.Exit(status);
            return status;
        }
    }
}
