using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Xml;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>
    /// XML-RPC over HttpListener at POST /RPC2: HTTP/1.1 keep-alive, requests served concurrently
    /// (each context is handled on the thread-pool thread that received it, after re-arming the listener).
    /// </summary>
    public sealed class XmlRpcHttpServer
    {
        public const string Path = "/RPC2";
        private const int PortProbeAttempts = 20;

        private readonly Func<string, object[], object> invoke;
        private HttpListener listener;

        /// <param name="invoke">Answers a method call; throws XmlRpcFault for a fault response.</param>
        public XmlRpcHttpServer(Func<string, object[], object> invoke)
        {
            this.invoke = invoke;
        }

        public int Start(IPAddress host, int port)
        {
            // HttpListener cannot bind port 0: ask the OS for a free port, then take it (retrying if someone was faster).
            for (int attempt = 1; ; attempt++)
            {
                int chosen = port != 0 ? port : FreePort(host);
                var candidate = new HttpListener { IgnoreWriteExceptions = true };
                candidate.Prefixes.Add("http://" + HostText(host) + ":" + chosen + "/");
                try
                {
                    candidate.Start();
                }
                catch (Exception) when (port == 0 && attempt < PortProbeAttempts)
                {
                    candidate.Close();
                    continue;
                }
                listener = candidate;
                listener.BeginGetContext(OnContext, null);
                return chosen;
            }
        }

        public void Stop()
        {
            listener.Close();
        }

        private void OnContext(IAsyncResult result)
        {
            HttpListenerContext context;
            try
            {
                context = listener.EndGetContext(result);
                listener.BeginGetContext(OnContext, null);
            }
            catch (ObjectDisposedException)
            {
                return;
            }
            catch (HttpListenerException)
            {
                return;
            }
            try
            {
                Handle(context);
            }
            catch (Exception e)
            {
                // The client went away mid-response; nothing to answer.
                Console.Error.WriteLine("xmlrpc: " + e.Message);
                context.Response.Abort();
            }
        }

        private void Handle(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            HttpListenerResponse response = context.Response;
            if (request.Url.AbsolutePath != Path)
            {
                Status(response, 404, "XML-RPC is served at " + Path);
                return;
            }
            if (request.HttpMethod != "POST")
            {
                response.AddHeader("Allow", "POST");
                Status(response, 405, "XML-RPC takes POST");
                return;
            }
            byte[] body = ReadBody(request);
            byte[] answer = Answer(body);
            response.StatusCode = 200;
            response.ContentType = "text/xml; charset=utf-8";
            response.ContentLength64 = answer.Length;
            response.OutputStream.Write(answer, 0, answer.Length);
            response.OutputStream.Close();
        }

        private byte[] Answer(byte[] body)
        {
            try
            {
                XmlRpcMethodCall call = XmlRpcParser.ParseMethodCall(body);
                return XmlRpcWriter.Response(invoke(call.MethodName, call.Parameters));
            }
            catch (XmlRpcFault fault)
            {
                return XmlRpcWriter.Fault(fault.Code, fault.Message);
            }
            catch (XmlException e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.ParseError, "not well-formed XML: " + e.Message);
            }
            catch (XmlRpcFormatException e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.InvalidRequest, "invalid XML-RPC: " + e.Message);
            }
            catch (Exception e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.InternalError, e.GetType().Name + ": " + e.Message);
            }
        }

        private static byte[] ReadBody(HttpListenerRequest request)
        {
            var buffer = request.ContentLength64 > 0 ? new MemoryStream((int)request.ContentLength64) : new MemoryStream();
            request.InputStream.CopyTo(buffer);
            return buffer.ToArray();
        }

        private static void Status(HttpListenerResponse response, int code, string text)
        {
            byte[] body = System.Text.Encoding.UTF8.GetBytes(text + "\n");
            response.StatusCode = code;
            response.ContentType = "text/plain; charset=utf-8";
            response.ContentLength64 = body.Length;
            response.OutputStream.Write(body, 0, body.Length);
            response.OutputStream.Close();
        }

        private static int FreePort(IPAddress host)
        {
            var probe = new TcpListener(host, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            return port;
        }

        private static string HostText(IPAddress host)
        {
            return host.AddressFamily == AddressFamily.InterNetworkV6 ? "[" + host + "]" : host.ToString();
        }
    }
}
