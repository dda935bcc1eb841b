using System;
using System.Linq;
using System.Net;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;
using RpcMatrix.JsonRpc;
using RpcMatrix.RawTcp;
using RpcMatrix.XmlRpc;

namespace RpcMatrix.Tests
{
    /// <summary>Each protocol's client against its own server over loopback, judged by the vectors.</summary>
    [TestFixture]
    public class LoopbackTests
    {
        private static void RunVectors(IBenchServer server, Func<int, IBenchClient> connect, string protocol)
        {
            int port = server.Start(IPAddress.Loopback, 0);
            try
            {
                using (IBenchClient client = connect(port))
                {
                    IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
                    Protocol p = idl.Registry.Get(protocol);
                    VectorOutcomes.AssertExact(idl, p, new VectorRunner(idl, new ReferenceBench()).Run(client, p));
                }
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void RawTcp()
        {
            RunVectors(new RawTcpServer(new ReferenceBench()), port => new RawTcpClient("127.0.0.1", port), "rawtcp");
        }

        [Test]
        public void XmlRpc()
        {
            RunVectors(new XmlRpcServer(new ReferenceBench(), false), port => new XmlRpcClient("127.0.0.1", port, false), "xmlrpc");
        }

        [Test]
        public void XmlRpcGzip()
        {
            RunVectors(new XmlRpcServer(new ReferenceBench(), true), port => new XmlRpcClient("127.0.0.1", port, true), "xmlrpc-gzip");
        }

        [Test]
        public void JsonRpcGzip()
        {
            RunVectors(new JsonRpcServer(new ReferenceBench(), true), port => new JsonRpcClient("127.0.0.1", port, true), "jsonrpc-gzip");
        }
    }
}
