using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.ServiceModel.Channels;
using System.Text;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Reference;
using RpcMatrix.Soap;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// The SOAP server against hostile peers (issue 23): half a request or idle connections held open do not stop it
    /// answering others, a DOCTYPE or unparsable request gets a Sender fault, an oversized declared body a 413.
    /// </summary>
    [TestFixture]
    public class SoapHostilePeerTests
    {
        private const int AnswerWithinMs = 5000;

        private static string Envelope(string protocol, string body)
        {
            string ns = protocol == "soap11" ? "http://schemas.xmlsoap.org/soap/envelope/" : "http://www.w3.org/2003/05/soap-envelope";
            return "<s:Envelope xmlns:s=\"" + ns + "\"><s:Body>" + body + "</s:Body></s:Envelope>";
        }

        private static SoapServer Start(string protocol, out int port)
        {
            Binding binding = SoapBindings.For(IdlFiles.Load(IdlPaths.Directory).Registry.Get(protocol));
            var server = new SoapServer(binding, new SoapDispatcher(new ReferenceBench(), binding.MessageVersion));
            port = server.Start(IPAddress.Loopback, 0);
            return server;
        }

        /// <summary>One POST on a connection of its own, Connection: close; the status line and the body, or a timeout.</summary>
        private static string Post(string protocol, int port, string body, out int status, string contentType = null)
        {
            contentType = contentType ?? (protocol == "soap11" ? "text/xml; charset=utf-8"
                : "application/soap+xml; charset=utf-8; action=\"urn:rpcmatrix:bench:ping\"");
            byte[] bytes = Encoding.UTF8.GetBytes(body);
            string head = "POST /bench HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: " + contentType
                + "\r\nSOAPAction: \"urn:rpcmatrix:bench:ping\"\r\nContent-Length: " + bytes.Length + "\r\nConnection: close\r\n\r\n";
            using (var client = new TcpClient())
            {
                client.Connect(IPAddress.Loopback, port);
                client.ReceiveTimeout = AnswerWithinMs;
                NetworkStream stream = client.GetStream();
                byte[] headBytes = Encoding.ASCII.GetBytes(head);
                stream.Write(headBytes, 0, headBytes.Length);
                stream.Write(bytes, 0, bytes.Length);
                var answer = new MemoryStream();
                stream.CopyTo(answer);
                string text = Encoding.UTF8.GetString(answer.ToArray());
                StringAssert.StartsWith("HTTP/1.1 ", text, "no answer");
                status = int.Parse(text.Substring(9, 3));
                return text;
            }
        }

        private static List<TcpClient> Connections(int port, int count, string send)
        {
            var held = new List<TcpClient>();
            for (int i = 0; i < count; i++)
            {
                var c = new TcpClient();
                c.Connect(IPAddress.Loopback, port);
                if (send != null)
                {
                    byte[] bytes = Encoding.ASCII.GetBytes(send);
                    c.GetStream().Write(bytes, 0, bytes.Length);
                }
                held.Add(c);
            }
            return held;
        }

        [TestCase("soap11")]
        [TestCase("soap12")]
        public void AnswersWhileAnotherConnectionHoldsHalfARequestAndTwentyAreIdle(string protocol)
        {
            int port;
            SoapServer server = Start(protocol, out port);
            var held = new List<TcpClient>();
            try
            {
                held.AddRange(Connections(port, 20, null));
                string type = protocol == "soap11" ? "text/xml; charset=utf-8" : "application/soap+xml; charset=utf-8";
                held.AddRange(Connections(port, 1, "POST /bench HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: " + type
                    + "\r\nContent-Length: 500\r\n\r\n<s:Env"));
                System.Threading.Thread.Sleep(300);
                int status;
                string answer = Post(protocol, port, Envelope(protocol, "<ping xmlns=\"urn:rpcmatrix:bench\"/>"), out status);
                Assert.AreEqual(200, status, answer);
                StringAssert.Contains("pingResponse", answer);
            }
            finally
            {
                held.ForEach(c => c.Close());
                server.Stop();
            }
        }

        [TestCase("soap11", "s:Client")]
        [TestCase("soap12", "<s:Value>Sender</s:Value>")]
        public void DoctypeIsAnsweredWithASenderFault(string protocol, string code)
        {
            int port;
            SoapServer server = Start(protocol, out port);
            try
            {
                int status;
                string answer = Post(protocol, port, "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"b\">]>"
                    + Envelope(protocol, "<echoString xmlns=\"urn:rpcmatrix:bench\"><value>&a;</value></echoString>"), out status);
                Assert.AreEqual(500, status, answer);
                StringAssert.Contains(code, answer);
                StringAssert.Contains("DTD", answer);
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void UnparsableRequestIsAnsweredWithASenderFault()
        {
            int port;
            SoapServer server = Start("soap11", out port);
            try
            {
                int status;
                string answer = Post("soap11", port, "<s:Envelope", out status);
                Assert.AreEqual(500, status, answer);
                StringAssert.Contains("s:Client", answer);
                StringAssert.Contains("not a SOAP envelope", answer);
            }
            finally
            {
                server.Stop();
            }
        }

        [TestCase("soap11", "application/json")]
        [TestCase("soap12", "text/xml; charset=utf-8")]
        public void WrongContentTypeIsRefusedWith415AndASenderFault(string protocol, string contentType)
        {
            int port;
            SoapServer server = Start(protocol, out port);
            try
            {
                int status;
                string answer = Post(protocol, port, Envelope(protocol, "<ping xmlns=\"urn:rpcmatrix:bench\"/>"), out status, contentType);
                Assert.AreEqual(415, status, answer);
                StringAssert.Contains(protocol == "soap11" ? "s:Client" : "<s:Value>Sender</s:Value>", answer);
                StringAssert.Contains("the content type '" + contentType + "'", answer);
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void DeclaredBodyOverTheLimitIsRefusedWith413()
        {
            int port;
            SoapServer server = Start("soap11", out port);
            try
            {
                using (var client = new TcpClient())
                {
                    client.Connect(IPAddress.Loopback, port);
                    client.ReceiveTimeout = AnswerWithinMs;
                    byte[] head = Encoding.ASCII.GetBytes("POST /bench HTTP/1.1\r\nHost: 127.0.0.1:" + port
                        + "\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: " + (65L * 1024 * 1024) + "\r\n\r\n<s:Envelope");
                    client.GetStream().Write(head, 0, head.Length);
                    var buffer = new byte[512];
                    int read = client.GetStream().Read(buffer, 0, buffer.Length);
                    StringAssert.StartsWith("HTTP/1.1 413", Encoding.ASCII.GetString(buffer, 0, read));
                }
            }
            finally
            {
                server.Stop();
            }
        }
    }
}
