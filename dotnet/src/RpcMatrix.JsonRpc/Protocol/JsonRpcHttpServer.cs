using System;
using System.IO;
using System.Net;
using System.Text;
using RpcMatrix.Core.Http;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>
    /// JSON-RPC 2.0 over HttpListener at POST /jsonrpc: HTTP/1.1 keep-alive, requests served concurrently (each
    /// context is handled on the thread-pool thread that received it, after re-arming the listener). A request
    /// that answers nothing (notifications only) gets 204 No Content. With gzip (jsonrpc-gzip) answers are
    /// compressed for clients that accept gzip; gzip requests are always read.
    /// </summary>
    public sealed class JsonRpcHttpServer
    {
        public const string Path = "/jsonrpc";
        private static readonly Encoding Utf8 = new UTF8Encoding(false, true);

        private readonly JsonRpcDispatcher dispatcher;
        private readonly HttpHost host;

        public JsonRpcHttpServer(JsonRpcDispatcher dispatcher, bool gzip)
        {
            this.dispatcher = dispatcher;
            host = new HttpHost("jsonrpc", Handle, gzip);
        }

        public int Start(IPAddress address, int port)
        {
            return host.Start(address, port);
        }

        public void Stop()
        {
            host.Stop();
        }

        private void Handle(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            HttpListenerResponse response = context.Response;
            if (request.Url.AbsolutePath != Path)
            {
                Send(context, 404, "text/plain; charset=utf-8", "JSON-RPC is served at " + Path + "\n");
                return;
            }
            if (request.HttpMethod != "POST")
            {
                response.AddHeader("Allow", "POST");
                Send(context, 405, "text/plain; charset=utf-8", "JSON-RPC takes POST\n");
                return;
            }
            string answer;
            try
            {
                answer = dispatcher.Handle(Utf8.GetString(HttpHost.ReadBody(request)));
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
            Send(context, 200, "application/json", answer);
        }

        private void Send(HttpListenerContext context, int status, string contentType, string text)
        {
            host.Send(context, status, contentType, Utf8.GetBytes(text));
        }
    }
}
