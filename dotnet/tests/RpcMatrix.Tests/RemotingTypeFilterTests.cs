using System;
using System.Net;
using System.Runtime.Remoting;
using System.Runtime.Remoting.Channels.Tcp;
using System.Security;
using NUnit.Framework;
using RpcMatrix.Remoting.Channel;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// The server channel's binary formatter runs at TypeFilterLevel.Low: a request carrying an object reference
    /// (a MarshalByRefObject passed by reference travels as an ObjRef) or a delegate is refused before it reaches
    /// the service; plain serializable values still pass.
    /// </summary>
    [TestFixture]
    public class RemotingTypeFilterTests
    {
        /// <summary>A service taking any object: the door an attacker would use to ship a gadget type.</summary>
        public sealed class AnySink : MarshalByRefObject
        {
            public string Accept(object value)
            {
                return value == null ? "null" : value.GetType().Name;
            }

            public override object InitializeLifetimeService()
            {
                return null;
            }
        }

        /// <summary>A client-side object that would be marshaled by reference.</summary>
        public sealed class Callback : MarshalByRefObject
        {
        }

        private TcpChannel channel;
        private AnySink sink;
        private AnySink proxy;

        [TestFixtureSetUp]
        public void Start()
        {
            channel = RemotingChannels.Server(IPAddress.Loopback, 0);
            sink = new AnySink();
            RemotingServices.Marshal(sink, "AnySink", typeof(AnySink));
            RemotingChannels.EnsureClient();
            proxy = (AnySink)Activator.GetObject(typeof(AnySink),
                RemotingChannels.Url("127.0.0.1", RemotingChannels.Port(channel), "AnySink"));
        }

        [TestFixtureTearDown]
        public void Stop()
        {
            RemotingServices.Disconnect(sink);
            RemotingChannels.Close(channel);
        }

        [Test]
        public void PlainValuesPass()
        {
            Assert.IsTrue(RemotingServices.IsTransparentProxy(proxy));
            Assert.AreEqual("String", CleanCallContext.Run(() => proxy.Accept("text")));
            Assert.AreEqual("Int64[]", CleanCallContext.Run(() => proxy.Accept(new long[] { 1, 2 })));
        }

        [Test]
        public void ObjectReferenceIsRefused()
        {
            var e = Assert.Throws<SecurityException>(() => CleanCallContext.Run(() => proxy.Accept(new Callback())));
            StringAssert.Contains("System.Runtime.Remoting.ObjRef", e.Message);
            StringAssert.Contains("not permitted to be deserialized at this security level", e.Message);
        }

        [Test]
        public void DelegateIsRefused()
        {
            Func<string> gadget = () => "ran";
            var e = Assert.Throws<SecurityException>(() => CleanCallContext.Run(() => proxy.Accept(gadget)));
            Console.Error.WriteLine("delegate argument refused: " + e.Message);
        }
    }
}
