using System.Diagnostics;
using System.IO;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Tests
{
    /// <summary>idl/protocols.json: lookup, refusal of unregistered names, and needs against lacks.</summary>
    [TestFixture]
    public class RegistryTests
    {
        private static IdlFiles Idl() { return IdlFiles.Load(IdlPaths.Directory); }

        [Test]
        public void KnowsFamiliesAndVariants()
        {
            ProtocolRegistry registry = Idl().Registry;
            Assert.AreEqual("grpc", registry.Get("grpc-tls").Family);
            Assert.AreEqual("tls", registry.Get("grpc-tls").Variant["security"]);
            Assert.AreEqual("compact", registry.Get("thrift-compact").Variant["encoding"]);
            Assert.AreEqual("xmlrpc", registry.Get("xmlrpc").Family);
        }

        [Test]
        public void RefusesAnUnregisteredProtocolWithTheRunnersWording()
        {
            var e = Assert.Throws<UnregisteredProtocolException>(() => Idl().Registry.Get("soap"));
            Assert.AreEqual("protocol 'soap' is not in idl/protocols.json", e.Message);
        }

        [Test]
        public void NeedsOfTheVectorAndOfItsOperationBothCount()
        {
            IdlFiles idl = Idl();
            Protocol xmlrpc = idl.Registry.Get("xmlrpc");
            Protocol grpc = idl.Registry.Get("grpc");
            Vector nan = idl.Vectors.Single(v => v.Id == "float64_nan");
            Vector stream = idl.Vectors.Single(v => v.Id == "random_doubles_stream_50k");
            Assert.AreEqual(xmlrpc.Lacks["nonfinite-float"], IdlFiles.UnsupportedReason(xmlrpc, nan.Needs, Operations.ByName(nan.Op)));
            Assert.AreEqual(xmlrpc.Lacks["server-streaming"], IdlFiles.UnsupportedReason(xmlrpc, stream.Needs, Operations.ByName(stream.Op)));
            Assert.IsNull(IdlFiles.UnsupportedReason(grpc, stream.Needs, Operations.ByName(stream.Op)));
            Assert.IsNull(IdlFiles.UnsupportedReason(grpc, nan.Needs, Operations.ByName(nan.Op)));
            Workload streamWorkload = idl.Workloads["randomDoublesStream50k"];
            Assert.IsNotNull(IdlFiles.UnsupportedReason(idl.Registry.Get("rawtcp"), streamWorkload.Needs, Operations.ByName(streamWorkload.Op)));
        }

        [TestCase("server")]
        [TestCase("client")]
        public void TheLauncherRefusesAnUnregisteredProtocolAtStart(string role)
        {
            string exe = Path.Combine(Path.GetDirectoryName(typeof(RegistryTests).Assembly.Location), "RpcMatrix.Launcher.exe");
            var start = new ProcessStartInfo("mono", "\"" + exe + "\" " + role + " --protocol soap --host 127.0.0.1 --port 9 --idl \"" + IdlPaths.Directory + "\"")
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                RedirectStandardInput = true,
            };
            using (Process process = Process.Start(start))
            {
                process.StandardInput.Close();
                string stderr = process.StandardError.ReadToEnd();
                string stdout = process.StandardOutput.ReadToEnd();
                process.WaitForExit();
                Assert.AreNotEqual(0, process.ExitCode);
                StringAssert.Contains("protocol 'soap' is not in idl/protocols.json", stderr);
                Assert.AreEqual("", stdout, "stdout carries only protocol lines");
            }
        }
    }
}
