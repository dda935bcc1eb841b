using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using RpcMatrix.Core.Json;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>
    /// JSON-RPC 2.0 over HttpWebRequest: one keep-alive connection reused for every call, no Expect: 100-continue
    /// round trip, Nagle off. Calls carry numeric ids and positional params; the answer's id must echo the call's.
    /// </summary>
    public sealed class JsonRpcHttpClient : IDisposable
    {
        private static readonly Encoding Utf8 = new UTF8Encoding(false);

        private readonly Uri uri;
        private readonly ServicePoint servicePoint;
        private long nextId;

        public JsonRpcHttpClient(string host, int port)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) && address.AddressFamily == AddressFamily.InterNetworkV6
                ? "[" + host + "]" : host;
            uri = new Uri("http://" + hostText + ":" + port + JsonRpcHttpServer.Path);
            ServicePointManager.Expect100Continue = false;
            ServicePointManager.UseNagleAlgorithm = false;
            servicePoint = ServicePointManager.FindServicePoint(uri);
            servicePoint.Expect100Continue = false;
            servicePoint.UseNagleAlgorithm = false;
        }

        /// <summary>Calls a method; returns its result, or throws JsonRpcError for an error object.</summary>
        public object Invoke(string method, params object[] parameters)
        {
            long id = Interlocked.Increment(ref nextId);
            string answer = Post(JsonWriter.Write(Request(method, parameters, id)));
            object parsed = JsonParser.Parse(answer);
            return Result(parsed as Dictionary<string, object>, id);
        }

        /// <summary>Sends a notification (no id): the server answers nothing.</summary>
        public void Notify(string method, params object[] parameters)
        {
            string answer = Post(JsonWriter.Write(Request(method, parameters, null)));
            if (answer.Length != 0)
            {
                throw new InvalidDataException("a notification was answered: " + answer);
            }
        }

        /// <summary>Posts raw JSON text and returns the raw answer ("" for 204 No Content).</summary>
        public string Post(string json)
        {
            byte[] body = Utf8.GetBytes(json);
            var request = (HttpWebRequest)WebRequest.Create(uri);
            request.Method = "POST";
            request.ContentType = "application/json";
            request.Accept = "application/json";
            request.UserAgent = "rpcmatrix-dotnet";
            request.KeepAlive = true;
            request.Proxy = null;
            request.ContentLength = body.Length;
            request.Timeout = 300000;
            request.ReadWriteTimeout = 300000;
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
                var buffer = response.ContentLength > 0 ? new MemoryStream((int)response.ContentLength) : new MemoryStream();
                stream.CopyTo(buffer);
                return Utf8.GetString(buffer.GetBuffer(), 0, (int)buffer.Length);
            }
        }

        public void Dispose()
        {
            servicePoint.CloseConnectionGroup(null);
        }

        private static Dictionary<string, object> Request(string method, object[] parameters, object id)
        {
            var request = new Dictionary<string, object> { { "jsonrpc", "2.0" }, { "method", method }, { "params", parameters } };
            if (id != null)
            {
                request["id"] = id;
            }
            return request;
        }

        /// <summary>The result of a response object, after checking version and id; an error object is thrown.</summary>
        public static object Result(Dictionary<string, object> response, long id)
        {
            if (response == null || !"2.0".Equals(Member(response, "jsonrpc")))
            {
                throw new InvalidDataException("not a JSON-RPC 2.0 response");
            }
            var error = Member(response, "error") as Dictionary<string, object>;
            if (error != null)
            {
                var code = Member(error, "code") as JsonNumber;
                int parsed;
                if (code == null || !int.TryParse(code.Text, out parsed))
                {
                    throw new InvalidDataException("error object without an integer code");
                }
                throw new JsonRpcError(parsed, Member(error, "message") as string ?? "");
            }
            var echoed = Member(response, "id") as JsonNumber;
            if (echoed == null || echoed.Text != id.ToString(System.Globalization.CultureInfo.InvariantCulture))
            {
                throw new InvalidDataException("response id " + Member(response, "id") + " does not echo request id " + id);
            }
            if (!response.ContainsKey("result"))
            {
                throw new InvalidDataException("response has neither result nor error");
            }
            return response["result"];
        }

        private static object Member(Dictionary<string, object> members, string name)
        {
            object value;
            return members.TryGetValue(name, out value) ? value : null;
        }
    }
}
