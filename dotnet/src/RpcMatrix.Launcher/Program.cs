using System;
using System.Collections.Generic;
using RpcMatrix.Core.Harness;
using RpcMatrix.JsonRpc;
using RpcMatrix.RawTcp;
using RpcMatrix.Remoting;
using RpcMatrix.Soap;
using RpcMatrix.XmlRpc;

namespace RpcMatrix.Launcher
{
    /// <summary>mono RpcMatrix.Launcher.exe server|client --protocol P ...: every .NET protocol behind one entry point.</summary>
    public static class Program
    {
        /// <summary>Protocol family (idl/protocols.json) -> adapter. A new protocol family adds one line here.</summary>
        private static readonly Dictionary<string, IProtocolAdapter> Adapters = new Dictionary<string, IProtocolAdapter>
        {
            { "rawtcp", new RawTcpAdapter() },
            { "xmlrpc", new XmlRpcAdapter() },
            { "soap", new SoapAdapter() },
            { "dotnet-remoting", new RemotingAdapter() },
            { "jsonrpc", new JsonRpcAdapter() },
        };

        public static int Main(string[] args)
        {
            int status = Core.Harness.Launcher.Run(args, Adapters);
            // Connection and listener threads may still be blocked in the runtime; exit now rather than wait for them.
            Environment.Exit(status);
            return status;
        }
    }
}
