using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// POSTs bodies to one URL over HttpWebRequest: one keep-alive connection reused for every call, no
    /// Expect: 100-continue round trip, Nagle off. With gzip (the gzip variants), each request body is compressed
    /// (Content-Encoding: gzip) and the answer is asked for and read in gzip through the framework's own
    /// AutomaticDecompression. Shared by the protocols spoken over plain HTTP (XML-RPC, JSON-RPC).
    ///
    /// Every client has a connection group of its own on the server's ServicePoint (ConnectionGroupName): Mono pools
    /// HttpWebRequest's connections per ServicePoint (one per scheme, host and port) and group, at most
    /// ConnectionLimit (2) per group, so that two clients of one server (the command loop's and the load command's)
    /// never lend each other a connection, and closing one closes its own connections only.
    /// </summary>
    public sealed class HttpPostClient : IDisposable
    {
        /// <summary>
        /// The forward proxy of HTTP_PROXY (or http_proxy), as curl and urllib read it, or none: the runner's
        /// --proxy http variant starts the client with it (runner/README.md, Variants). None: Proxy = null, no
        /// proxy lookup. The WCF SOAP client takes it too (SoapAdapter).
        /// </summary>
        public static readonly IWebProxy EnvironmentProxy = ProxyOf(
            Environment.GetEnvironmentVariable("HTTP_PROXY") ?? Environment.GetEnvironmentVariable("http_proxy"));

        private static int clients;

        private readonly string connectionGroup = "rpcmatrix-" + Interlocked.Increment(ref clients);
        private readonly Uri uri;
        private readonly string contentType;
        private readonly string accept;
        private readonly bool gzip;
        private readonly ServicePoint servicePoint;

        public HttpPostClient(string host, int port, string path, string contentType, string accept, bool gzip)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) && address.AddressFamily == AddressFamily.InterNetworkV6
                ? "[" + host + "]" : host;
            uri = new Uri("http://" + hostText + ":" + port + path);
            this.contentType = contentType;
            this.accept = accept;
            this.gzip = gzip;
            ServicePointManager.Expect100Continue = false;
            ServicePointManager.UseNagleAlgorithm = false;
            servicePoint = ServicePointManager.FindServicePoint(uri, EnvironmentProxy); // the requests' own
            servicePoint.Expect100Continue = false;
            servicePoint.UseNagleAlgorithm = false;
        }

        /// <summary>Posts the body; returns the answer's body (decompressed). A status other than 2xx throws.</summary>
        public byte[] Post(byte[] body)
        {
            var request = (HttpWebRequest)WebRequest.Create(uri);
            request.Method = "POST";
            request.ContentType = contentType;
            if (accept != null)
            {
                request.Accept = accept;
            }
            request.UserAgent = "rpcmatrix-dotnet";
            // through a proxy, a connection per request: tinyproxy 1.11 closes each client connection after its answer
            // without saying so, and Mono's next request on the kept connection failed (ReceiveFailure)
            request.KeepAlive = EnvironmentProxy == null;
            request.ConnectionGroupName = connectionGroup;
            request.Proxy = EnvironmentProxy;
            request.Timeout = 300000;
            request.ReadWriteTimeout = 300000;
            if (gzip)
            {
                body = GzipBody.Compress(body);
                request.Headers[HttpRequestHeader.ContentEncoding] = "gzip";
                request.AutomaticDecompression = DecompressionMethods.GZip; // also sends Accept-Encoding: gzip
            }
            request.ContentLength = body.Length;
            using (Stream stream = request.GetRequestStream())
            {
                stream.Write(body, 0, body.Length);
            }
            HttpWebResponse response;
            try
            {
                response = (HttpWebResponse)request.GetResponse();
            }
            catch (WebException e) when (e.Response is HttpWebResponse)
            {
                using (var failed = (HttpWebResponse)e.Response)
                {
                    throw new WebException("HTTP " + (int)failed.StatusCode + " " + failed.StatusDescription + " from " + uri, e);
                }
            }
            using (response)
            using (Stream stream = response.GetResponseStream())
            {
                // ContentLength is the compressed length when the answer was gzip: only a first guess.
                var buffer = response.ContentLength > 0 ? new MemoryStream((int)response.ContentLength) : new MemoryStream();
                stream.CopyTo(buffer);
                return buffer.ToArray();
            }
        }

        public void Dispose()
        {
            servicePoint.CloseConnectionGroup(connectionGroup);
        }

        public static IWebProxy ProxyOf(string text)
        {
            if (string.IsNullOrEmpty(text))
            {
                return null;
            }
            // every address through it: the suite's servers sit at addresses a bypass list would take as local
            return new WebProxy(new Uri(text.Contains("://") ? text : "http://" + text)) { BypassProxyOnLocal = false };
        }
    }
}
