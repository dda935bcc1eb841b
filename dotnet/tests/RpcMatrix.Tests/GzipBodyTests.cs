using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using NUnit.Framework;
using RpcMatrix.Core.Http;

namespace RpcMatrix.Tests
{
    /// <summary>The gzip variants' HTTP layer: what the client sends and asks for, and when the host compresses.</summary>
    [TestFixture]
    public class GzipBodyTests
    {
        [Test]
        public void AcceptEncodingIsReadAsHttpSaysIt()
        {
            Assert.IsTrue(GzipBody.Accepted("gzip"));
            Assert.IsTrue(GzipBody.Accepted("deflate, GZIP;q=0.5"));
            Assert.IsFalse(GzipBody.Accepted("gzip;q=0"));
            Assert.IsFalse(GzipBody.Accepted("identity"));
            Assert.IsFalse(GzipBody.Accepted(null));
        }

        [Test]
        public void BodiesSurviveCompression()
        {
            byte[] body = Encoding.UTF8.GetBytes(new string('x', 5000) + "Grüße");
            byte[] compressed = GzipBody.Compress(body);
            Assert.Less(compressed.Length, body.Length);
            Assert.AreEqual(body, GzipBody.Decompress(compressed, BoundedBody.MaxBytes));
        }

        [Test]
        public void InflationStopsAtTheLimit()
        {
            byte[] bomb = GzipBody.Compress(new byte[100001]);
            Assert.AreEqual(100001, GzipBody.Decompress(bomb, 100001).Length);
            var e = Assert.Throws<BodyTooLargeException>(() => GzipBody.Decompress(bomb, 100000));
            StringAssert.Contains("100000", e.Message);
        }

        /// <summary>
        /// A gzip bomb (a body that inflates past the contract's 64 MiB) and a declared length over it are refused
        /// with 413 before the server holds them, and the server goes on answering.
        /// </summary>
        [Test]
        public void OversizedBodiesAreRefusedAndTheHostGoesOn()
        {
            HttpHost host = null;
            host = new HttpHost("test", context =>
                host.Send(context, 200, "text/plain", HttpHost.ReadBody(context.Request)), true);
            int port = host.Start(IPAddress.Loopback, 0);
            try
            {
                byte[] bomb = GzipBody.Compress(new byte[BoundedBody.MaxBytes + 1]);
                Assert.Less(bomb.Length, 1024 * 1024);
                StringAssert.StartsWith("HTTP/1.1 413", RawExchange(port, "Content-Encoding: gzip\r\nContent-Length: "
                    + bomb.Length + "\r\n", bomb));
                StringAssert.StartsWith("HTTP/1.1 413", RawExchange(port, "Content-Length: 4000000000\r\n",
                    new byte[16]));
                byte[] sent = Encoding.UTF8.GetBytes("still here");
                using (var client = new HttpPostClient("127.0.0.1", port, "/echo", "text/plain", null, true))
                {
                    Assert.AreEqual(sent, client.Post(sent));
                }
            }
            finally
            {
                host.Stop();
            }
        }

        /// <summary>One POST written by hand (a client library would refuse the lie); the answer's status line.</summary>
        internal static string RawExchange(int port, string headers, byte[] body)
        {
            using (var tcp = new TcpClient("127.0.0.1", port))
            {
                tcp.ReceiveTimeout = 10000;
                NetworkStream stream = tcp.GetStream();
                byte[] head = Encoding.ASCII.GetBytes("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n");
                stream.Write(head, 0, head.Length);
                try
                {
                    stream.Write(body, 0, body.Length);
                }
                catch (IOException)
                {
                    // The server may answer and close before the whole body is sent.
                }
                var reader = new StreamReader(stream, Encoding.ASCII);
                return reader.ReadLine();
            }
        }

        /// <summary>
        /// A chunked request (Java HttpClient's GzipCompressingEntity sends one) still gets an answer with its
        /// Content-Length in one piece: a chunked answer would end in a segment of its own that Nagle holds.
        /// </summary>
        [TestCase(true)]
        [TestCase(false)]
        public void AChunkedRequestIsAnsweredWithItsLength(bool gzip)
        {
            HttpHost host = null;
            host = new HttpHost("test", context =>
                host.Send(context, 200, "text/plain", HttpHost.ReadBody(context.Request)), gzip);
            int port = host.Start(IPAddress.Loopback, 0);
            try
            {
                byte[] sent = Encoding.UTF8.GetBytes(new string('z', 3000));
                var request = (HttpWebRequest)WebRequest.Create("http://127.0.0.1:" + port + "/echo");
                request.Method = "POST";
                request.Proxy = null;
                request.SendChunked = true;
                request.Headers[HttpRequestHeader.AcceptEncoding] = "gzip";
                using (Stream stream = request.GetRequestStream())
                {
                    stream.Write(sent, 0, sent.Length);
                }
                using (var response = (HttpWebResponse)request.GetResponse())
                {
                    Assert.IsNull(response.Headers["Transfer-Encoding"]);
                    long length = long.Parse(response.Headers["Content-Length"]);
                    var body = new MemoryStream();
                    response.GetResponseStream().CopyTo(body);
                    Assert.AreEqual(length, body.Length);
                    byte[] received = gzip ? GzipBody.Decompress(body.ToArray(), BoundedBody.MaxBytes) : body.ToArray();
                    Assert.AreEqual(sent, received);
                }
            }
            finally
            {
                host.Stop();
            }
        }

        [TestCase(true)]
        [TestCase(false)]
        public void OnlyTheGzipVariantCompressesEitherWay(bool gzip)
        {
            string seenEncoding = null;
            string seenAccept = null;
            HttpHost host = null;
            host = new HttpHost("test", context =>
            {
                seenEncoding = context.Request.Headers["Content-Encoding"];
                seenAccept = context.Request.Headers["Accept-Encoding"];
                host.Send(context, 200, "text/plain", HttpHost.ReadBody(context.Request));
            }, gzip);
            int port = host.Start(IPAddress.Loopback, 0);
            try
            {
                byte[] sent = Encoding.UTF8.GetBytes(new string('y', 10000));
                using (var client = new HttpPostClient("127.0.0.1", port, "/echo", "text/plain", null, gzip))
                {
                    Assert.AreEqual(sent, client.Post(sent));
                }
                Assert.AreEqual(gzip ? "gzip" : null, seenEncoding);
                Assert.AreEqual(gzip, GzipBody.Accepted(seenAccept));

                var request = (HttpWebRequest)WebRequest.Create("http://127.0.0.1:" + port + "/echo");
                request.Method = "POST";
                request.Proxy = null;
                request.Headers[HttpRequestHeader.AcceptEncoding] = "gzip";
                using (Stream stream = request.GetRequestStream())
                {
                    stream.Write(sent, 0, sent.Length);
                }
                using (var response = (HttpWebResponse)request.GetResponse())
                {
                    Assert.AreEqual(gzip ? "gzip" : null, response.Headers["Content-Encoding"]);
                }
            }
            finally
            {
                host.Stop();
            }
        }
    }
}
