using System;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// An HttpListener bound to one address and port, serving requests concurrently: each context is handled on
    /// the thread-pool thread that received it, after re-arming the listener. HTTP/1.1 keep-alive is
    /// HttpListener's default. Shared by the protocols served over plain HTTP (XML-RPC, JSON-RPC, SOAP). A gzip request
    /// body is always read; answers are gzip only for a gzip variant and a client that accepts it.
    /// </summary>
    public sealed class HttpHost
    {
        private const int PortProbeAttempts = 20;

        private readonly string name;
        private readonly Action<HttpListenerContext> handle;
        private readonly bool gzip;
        private HttpListener listener;

        /// <param name="name">Prefixes what goes to stderr.</param>
        /// <param name="handle">Answers one request; an exception aborts the response.</param>
        /// <param name="gzip">Whether answers are gzip-compressed for clients that accept it.</param>
        public HttpHost(string name, Action<HttpListenerContext> handle, bool gzip)
        {
            this.name = name;
            this.handle = handle;
            this.gzip = gzip;
        }

        /// <summary>Starts listening; port 0 picks a free port. Returns the port taken.</summary>
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

        /// <summary>
        /// The largest request body this host reads, counted after any decompression: 16 MiB. The contract allows
        /// 64 MiB (idl/CONTRACT.md, "Limits"), but its largest message is about 2.5 MiB (XML-RPC's 50,000 doubles,
        /// 2.45 MiB in the published runs) and its largest value 1 MiB, so nothing the contract sends comes near;
        /// Mono's heap took 208 to 290 MiB for one 32 MiB echoString (a server of 32 to 45 MiB) and kept it.
        /// </summary>
        public const int MaxRequestBytes = 16 * 1024 * 1024;

        /// <summary>
        /// A request whose body came to more than this (4 MiB, more than any workload's message) is followed by a
        /// full collection once it is answered: Mono's SGen collects only when allocation asks it to, so an idle
        /// server kept the garbage of one large request (its body, strings and answer) resident indefinitely.
        /// </summary>
        public const int CollectAfterBytes = 4 * 1024 * 1024;

        [ThreadStatic]
        private static long bodyBytes;

        /// <summary>
        /// The whole request body, decompressed when it came in gzip; BodyTooLargeException (answered 413 by this
        /// host) when it declares, sends or inflates to more than MaxRequestBytes, before reading when its
        /// Content-Length says so.
        /// </summary>
        public static byte[] ReadBody(HttpListenerRequest request)
        {
            if (request.ContentLength64 > MaxRequestBytes)
            {
                throw new BodyTooLargeException("the declared Content-Length of " + request.ContentLength64
                    + " bytes exceeds the limit of " + MaxRequestBytes + " bytes");
            }
            try
            {
                byte[] body = BoundedBody.ReadAll(request.InputStream, MaxRequestBytes, "the request body",
                    request.ContentLength64);
                bodyBytes = body.Length;
                if (!GzipBody.IsGzip(request.Headers["Content-Encoding"]))
                {
                    return body;
                }
                byte[] inflated = GzipBody.Decompress(body, MaxRequestBytes);
                bodyBytes += inflated.Length;
                return inflated;
            }
            catch (BodyTooLargeException)
            {
                bodyBytes = MaxRequestBytes;
                throw;
            }
        }

        /// <summary>Answers with a whole body and its length (keep-alive), gzip when this host compresses.</summary>
        public void Send(HttpListenerContext context, int status, string contentType, byte[] body)
        {
            HttpListenerResponse response = context.Response;
            if (gzip && body.Length > 0 && GzipBody.Accepted(context.Request.Headers["Accept-Encoding"]))
            {
                body = GzipBody.Compress(body);
                response.AddHeader("Content-Encoding", "gzip");
            }
            response.StatusCode = status;
            response.ContentType = contentType;
            // Mono's HttpListener turns SendChunked on when it reads a chunked request, and then ignores the
            // length: the answer goes chunked, its last chunk in a segment of its own that Nagle holds until the
            // client's delayed ACK (about 40 ms per call). The whole body is here, so it goes with its length.
            response.SendChunked = false;
            response.ContentLength64 = body.Length;
            response.OutputStream.Write(body, 0, body.Length);
            response.OutputStream.Close();
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
            bodyBytes = 0;
            try
            {
                handle(context);
            }
            catch (BodyTooLargeException e)
            {
                Refuse(context, 413, e.Message);
            }
            catch (Exception e)
            {
                // The client went away mid-response; nothing to answer.
                Console.Error.WriteLine(name + ": " + e.Message);
                context.Response.Abort();
            }
            if (bodyBytes > CollectAfterBytes)
            {
                GC.Collect();
            }
        }

        /// <summary>An error answer that closes the connection: what is left of the request is not read.</summary>
        private void Refuse(HttpListenerContext context, int status, string message)
        {
            try
            {
                context.Response.KeepAlive = false;
                Send(context, status, "text/plain; charset=utf-8", System.Text.Encoding.UTF8.GetBytes(message + "\n"));
            }
            catch (Exception e)
            {
                Console.Error.WriteLine(name + ": " + e.Message);
                context.Response.Abort();
            }
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
