using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>
    /// JSON-RPC 2.0 over HttpListener at POST /jsonrpc: HTTP/1.1 keep-alive, requests served concurrently (each
    /// context is handled on the thread-pool thread that received it, after re-arming the listener). A request
    /// that answers nothing (notifications only) gets 204 No Content.
    /// </summary>
    public sealed class JsonRpcHttpServer
    {
        public const string Path = "/jsonrpc";
        private const int PortProbeAttempts = 20;
        private static readonly Encoding Utf8 = new UTF8Encoding(false, true);

        private readonly JsonRpcDispatcher dispatcher;
        private HttpListener listener;

        public JsonRpcHttpServer(JsonRpcDispatcher dispatcher)
        {
            this.dispatcher = dispatcher;
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
                Console.Error.WriteLine("jsonrpc: " + e.Message);
                context.Response.Abort();
            }
        }

        private void Handle(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            HttpListenerResponse response = context.Response;
            if (request.Url.AbsolutePath != Path)
            {
                Send(response, 404, "text/plain; charset=utf-8", "JSON-RPC is served at " + Path + "\n");
                return;
            }
            if (request.HttpMethod != "POST")
            {
                response.AddHeader("Allow", "POST");
                Send(response, 405, "text/plain; charset=utf-8", "JSON-RPC takes POST\n");
                return;
            }
            string answer;
            try
            {
                answer = dispatcher.Handle(Utf8.GetString(ReadBody(request)));
            }
            catch (DecoderFallbackException)
            {
                answer = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error: not UTF-8\"},\"id\":null}";
            }
            if (answer == null)
            {
                response.StatusCode = 204;
                response.ContentLength64 = 0;
                response.OutputStream.Close();
                return;
            }
            Send(response, 200, "application/json", answer);
        }

        private static void Send(HttpListenerResponse response, int status, string contentType, string text)
        {
            byte[] body = Utf8.GetBytes(text);
            response.StatusCode = status;
            response.ContentType = contentType;
            response.ContentLength64 = body.Length;
            response.OutputStream.Write(body, 0, body.Length);
            response.OutputStream.Close();
        }

        private static byte[] ReadBody(HttpListenerRequest request)
        {
            var buffer = request.ContentLength64 > 0 ? new MemoryStream((int)request.ContentLength64) : new MemoryStream();
            request.InputStream.CopyTo(buffer);
            return buffer.ToArray();
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
