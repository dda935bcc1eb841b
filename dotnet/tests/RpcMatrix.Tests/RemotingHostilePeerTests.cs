using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using NUnit.Framework;
using RpcMatrix.Core.Harness;
using RpcMatrix.Remoting.Channel;
using RpcMatrix.Remoting.Service;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// .NET Remoting against hostile peers (issue 23): the server process ends within runner/PROTOCOL.md's 5 seconds
    /// of SIGTERM with 150 idle connections open, a stop that hangs does not hold the process, and a BenchError
    /// reaches the client without the server's stack frames.
    /// </summary>
    [TestFixture]
    public class RemotingHostilePeerTests
    {
        private sealed class HangingServer : IBenchServer
        {
            public int Start(IPAddress host, int port) { return port; }
            public void Stop() { Thread.Sleep(Timeout.Infinite); }
        }

        [Test]
        public void AStopThatHangsIsGivenUpWithinTheBound()
        {
            bool gaveUp = false;
            var clock = Stopwatch.StartNew();
            bool stopped = ServerMain.StopWithin(new HangingServer(), TimeSpan.FromMilliseconds(300), () => gaveUp = true);
            Assert.IsFalse(stopped);
            Assert.IsTrue(gaveUp);
            Assert.Less(clock.ElapsedMilliseconds, 2000);
            Assert.Less(ServerMain.StopBound, TimeSpan.FromSeconds(5));
        }

        [Test]
        public void ServerProcessExitsWithinFiveSecondsOfSigtermWith150IdleConnections()
        {
            // Half of them hold half a remoting preamble: the channel's connection thread waits for the rest.
            WithIdleConnections(150, true, server =>
            {
                Thread.Sleep(500);
                var clock = Stopwatch.StartNew();
                Process.Start("kill", "-TERM " + server.Process.Id).WaitForExit();
                Assert.IsTrue(server.Process.WaitForExit(5000), "still running 5 s after SIGTERM");
                Assert.AreEqual(0, server.Process.ExitCode);
                Assert.Less(clock.ElapsedMilliseconds, 5000);
            });
        }

        /// <summary>
        /// Mono's accept loop added a connection thread 500 ms after the last when none was free, so a client beside
        /// N idle connections waited about N x 0.5 s (200: 99 s); the suite's ConnectionThreads serves each at once.
        /// </summary>
        [Test]
        public void ANewClientIsServedAtOnceBeside200IdleConnections()
        {
            WithIdleConnections(200, false, server =>
            {
                Thread.Sleep(300);
                RemotingChannels.EnsureClient();
                var bench = (BenchService)Activator.GetObject(typeof(BenchService),
                    RemotingChannels.Url("127.0.0.1", server.Port, BenchService.Uri));
                var clock = Stopwatch.StartNew();
                CleanCallContext.Run(() =>
                {
                    bench.Ping();
                    return true;
                }, 5000);
                Assert.Less(clock.ElapsedMilliseconds, 5000);
            });
        }

        /// <summary>A remoting-tcp server process with <paramref name="count"/> connections open to it during the test.</summary>
        private static void WithIdleConnections(int count, bool halfPreamble, Action<ServerProcess> test)
        {
            var held = new List<TcpClient>();
            using (var server = new ServerProcess("remoting-tcp"))
            {
                try
                {
                    for (int i = 0; i < count; i++)
                    {
                        var c = new TcpClient();
                        c.Connect(IPAddress.Loopback, server.Port);
                        if (halfPreamble && i % 2 == 0)
                        {
                            c.GetStream().Write(new byte[] { 0x2e, 0x4e, 0x45, 0x54, 1 }, 0, 5);
                        }
                        held.Add(c);
                    }
                    test(server);
                }
                finally
                {
                    held.ForEach(c => c.Close());
                }
            }
        }

        [Test]
        public void BenchErrorReachesTheClientWithoutServerStackFrames()
        {
            var domain = AppDomain.CreateDomain("remoting-stack", null, AppDomain.CurrentDomain.SetupInformation);
            var host = (RemotingTests.ServerHost)domain.CreateInstanceAndUnwrap(typeof(RemotingTests.ServerHost).Assembly.FullName,
                typeof(RemotingTests.ServerHost).FullName);
            try
            {
                int port = CleanCallContext.Run(() => host.Start());
                RemotingChannels.EnsureClient();
                var bench = (BenchService)Activator.GetObject(typeof(BenchService), RemotingChannels.Url("127.0.0.1", port, BenchService.Uri));
                RemoteBenchError error = CleanCallContext.Run(() =>
                {
                    try
                    {
                        bench.Fail(418, "teapot");
                        return null;
                    }
                    catch (RemoteBenchError e)
                    {
                        return e;
                    }
                });
                Assert.IsNotNull(error, "no RemoteBenchError");
                Assert.AreEqual(418, error.Code);
                Assert.AreEqual("teapot", error.Message);
                // Mono's proxy prefixes the client's frames with "Server stack trace: <what the server sent>".
                string stack = error.StackTrace ?? "";
                int server = stack.IndexOf("Server stack trace:", StringComparison.Ordinal);
                int rethrown = stack.IndexOf("Exception rethrown at", StringComparison.Ordinal);
                string serverFrames = server < 0 ? "" : stack.Substring(server, (rethrown < server ? stack.Length : rethrown) - server);
                StringAssert.DoesNotContain(" at ", serverFrames, stack);
                StringAssert.DoesNotContain("ReferenceBench", stack);
            }
            finally
            {
                CleanCallContext.Run(() => { host.Stop(); return 0; });
                AppDomain.Unload(domain);
            }
        }
    }
}
