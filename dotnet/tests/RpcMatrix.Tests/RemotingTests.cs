using System;
using System.Linq;
using System.Net;
using System.Runtime.Remoting;
using System.Runtime.Remoting.Channels.Tcp;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;
using RpcMatrix.Remoting;
using RpcMatrix.Remoting.Channel;

namespace RpcMatrix.Tests
{
    /// <summary>.NET Remoting (remoting-tcp) over loopback: vectors incl. sessions, errors, and the type filter.</summary>
    [TestFixture]
    public class RemotingTests
    {
        /// <summary>
        /// The server in an application domain of its own: in one domain an ObjRef to a local object unmarshals to
        /// the object itself, so calls would skip the channel (and a released calculator would not be refused by
        /// Remoting). Across domains every call goes through the TCP channel, as between processes.
        /// </summary>
        public sealed class ServerHost : MarshalByRefObject
        {
            private RemotingServer server;

            public int Start()
            {
                server = new RemotingServer(new ReferenceBench());
                return server.Start(IPAddress.Loopback, 0);
            }

            public void Stop()
            {
                server.Stop();
            }
        }

        private AppDomain serverDomain;
        private ServerHost host;
        private RemotingClient client;

        [TestFixtureSetUp]
        public void Start()
        {
            serverDomain = AppDomain.CreateDomain("remoting-server", null, AppDomain.CurrentDomain.SetupInformation);
            host = (ServerHost)serverDomain.CreateInstanceAndUnwrap(typeof(ServerHost).Assembly.FullName, typeof(ServerHost).FullName);
            int port = CleanCallContext.Run(() => host.Start());
            client = new RemotingClient("127.0.0.1", port);
        }

        [TestFixtureTearDown]
        public void Stop()
        {
            client.Dispose();
            CleanCallContext.Run(() => host.Stop());
            AppDomain.Unload(serverDomain);
        }

        [Test]
        public void EveryVectorPassesOrIsUnsupported()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            Protocol remoting = idl.Registry.Get("remoting-tcp");
            var results = CleanCallContext.Run(() => new VectorRunner(idl, new ReferenceBench()).Run(client, remoting));
            VectorOutcomes.AssertExact(idl, remoting, results);
            Assert.AreEqual("pass", results.Single(r => r.Id == "calculator_released").Status);
        }

        [Test]
        public void BenchErrorCrossesTheChannelWithCodeAndMessage()
        {
            var e = Assert.Throws<BenchError>(() => CleanCallContext.Run(() => client.Fail(418, "teapot")));
            Assert.AreEqual(418, e.Code);
            Assert.AreEqual("teapot", e.Message);
        }

        [Test]
        public void ReleasedCalculatorIsRefusedWithRemotingException()
        {
            CleanCallContext.Run(ReleasedScript);
        }

        private void ReleasedScript()
        {
            ICalculator c = client.Create();
            Assert.AreEqual(7, c.Add(7));
            c.Release();
            var e = Assert.Catch<Exception>(() => c.Total());
            Assert.IsInstanceOf<RemotingException>(e);
            Assert.IsTrue(client.IsNoSuchObject(e));
            client.Ping();
        }

        [Test]
        public void CalculatorsShareNoState()
        {
            CleanCallContext.Run(IsolationScript);
        }

        private void IsolationScript()
        {
            ICalculator a = client.Create();
            ICalculator b = client.Create();
            a.Add(3);
            b.Add(4);
            Assert.AreEqual(3, a.Total());
            Assert.AreEqual(4, b.Total());
            a.Release();
            b.Release();
        }
    }
}
