using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using RpcMatrix.Core.Http;
using RpcMatrix.Core.Json;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>
    /// JSON-RPC 2.0 over one kept-alive HTTP connection (HttpPostClient: no Expect: 100-continue, Nagle off; with
    /// gzip, jsonrpc-gzip, every request compressed and the answer asked for in gzip). Calls carry numeric ids and
    /// positional params; the answer's id must echo the call's.
    /// </summary>
    public sealed class JsonRpcHttpClient : IDisposable
    {
        private static readonly Encoding Utf8 = new UTF8Encoding(false);

        private readonly HttpPostClient http;
        private long nextId;

        public JsonRpcHttpClient(string host, int port, bool gzip)
        {
            http = new HttpPostClient(host, port, JsonRpcHttpServer.Path, "application/json", "application/json", gzip);
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
            return Utf8.GetString(http.Post(Utf8.GetBytes(json)));
        }

        public void Dispose()
        {
            http.Dispose();
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
