using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Http;
using RpcMatrix.Core.Json;

namespace RpcMatrix.JsonRpc
{
    /// <summary>
    /// Each contract operation as a JSON-RPC 2.0 call to /jsonrpc through JsonRpcMapping, over one kept-alive HTTP
    /// connection (HttpRpcClient): numeric ids, positional params, the answer's id checked against the call's; an
    /// error object comes back as BenchError (code and message unchanged, since the contract carries BenchError as
    /// exactly that).
    /// </summary>
    public sealed class JsonRpcClient : HttpRpcClient
    {
        private static readonly Encoding Utf8 = new UTF8Encoding(false);

        private long nextId;

        /// <param name="gzip">jsonrpc-gzip: requests compressed, answers asked for in gzip.</param>
        public JsonRpcClient(string host, int port, bool gzip)
            : base(JsonRpcMapping.Table, host, port, JsonRpcServer.Path, JsonRpcServer.ContentType, JsonRpcServer.ContentType, gzip)
        {
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
            return Utf8.GetString(Post(Utf8.GetBytes(json)));
        }

        protected override object Invoke(string method, object[] parameters)
        {
            long id = Interlocked.Increment(ref nextId);
            object parsed = JsonParser.Parse(Post(JsonWriter.Write(Request(method, parameters, id))));
            return Result(parsed as Dictionary<string, object>, id);
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

        /// <summary>The result of a response object, after checking version and id; an error object is thrown as BenchError.</summary>
        private static object Result(Dictionary<string, object> response, long id)
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
                throw new BenchError(parsed, Member(error, "message") as string ?? "");
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
