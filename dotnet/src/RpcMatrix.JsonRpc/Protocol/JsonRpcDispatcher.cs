using System;
using System.Collections.Generic;
using RpcMatrix.Core.Json;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>
    /// The JSON-RPC 2.0 server side, transport aside: one request text in, the response text out, or null when
    /// nothing is answered (a notification, or a batch of notifications only). Batches, notifications, id echo,
    /// the "jsonrpc": "2.0" check and the spec's error objects (-32700, -32600, -32601, -32602, -32603).
    /// </summary>
    public sealed class JsonRpcDispatcher
    {
        private readonly Func<string, IList<object>, object> invoke;

        /// <param name="invoke">
        /// Answers a method with positional params; throws JsonRpcError (-32601 for an unknown method, -32602 for
        /// params that do not fit, or an application code) for an error object.
        /// </param>
        public JsonRpcDispatcher(Func<string, IList<object>, object> invoke)
        {
            this.invoke = invoke;
        }

        public string Handle(string body)
        {
            object parsed;
            try
            {
                parsed = JsonParser.Parse(body);
            }
            catch (FormatException e)
            {
                return JsonWriter.Write(Error(null, JsonRpcError.ParseError, "Parse error: " + e.Message));
            }
            var batch = parsed as List<object>;
            if (batch == null)
            {
                return Write(One(parsed));
            }
            if (batch.Count == 0)
            {
                return JsonWriter.Write(Error(null, JsonRpcError.InvalidRequest, "Invalid Request: empty batch"));
            }
            var answers = new List<object>(batch.Count);
            foreach (object request in batch)
            {
                Dictionary<string, object> answer = One(request);
                if (answer != null)
                {
                    answers.Add(answer);
                }
            }
            return answers.Count == 0 ? null : JsonWriter.Write(answers);
        }

        private static string Write(Dictionary<string, object> answer)
        {
            return answer == null ? null : JsonWriter.Write(answer);
        }

        /// <summary>One request object: its response, or null for a valid notification.</summary>
        private Dictionary<string, object> One(object value)
        {
            var request = value as Dictionary<string, object>;
            if (request == null)
            {
                return Error(null, JsonRpcError.InvalidRequest, "Invalid Request: not an object");
            }
            bool isNotification = !request.ContainsKey("id");
            object id = isNotification ? null : request["id"];
            if (!(id == null || id is string || id is JsonNumber))
            {
                return Error(null, JsonRpcError.InvalidRequest, "Invalid Request: id must be a string, a number or null");
            }
            object version;
            if (!request.TryGetValue("jsonrpc", out version) || !"2.0".Equals(version))
            {
                return Error(id, JsonRpcError.InvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
            }
            object method;
            if (!request.TryGetValue("method", out method) || !(method is string))
            {
                return Error(id, JsonRpcError.InvalidRequest, "Invalid Request: \"method\" must be a string");
            }
            object parameters;
            IList<object> positional;
            if (!request.TryGetValue("params", out parameters))
            {
                positional = new List<object>();
            }
            else if (parameters is List<object>)
            {
                positional = (List<object>)parameters;
            }
            else if (parameters is Dictionary<string, object>)
            {
                positional = null;
            }
            else
            {
                return Error(id, JsonRpcError.InvalidRequest, "Invalid Request: \"params\" must be an array or an object");
            }
            object result;
            try
            {
                if (positional == null)
                {
                    positional = ByName.Positional((string)method, (Dictionary<string, object>)parameters);
                }
                result = invoke((string)method, positional);
            }
            catch (JsonRpcError e)
            {
                return isNotification ? null : Error(id, e.Code, e.Message);
            }
            catch (Exception e)
            {
                return isNotification ? null : Error(id, JsonRpcError.InternalError, "Internal error: " + e.GetType().Name + ": " + e.Message);
            }
            if (isNotification)
            {
                return null;
            }
            return new Dictionary<string, object> { { "jsonrpc", "2.0" }, { "result", result }, { "id", id } };
        }

        private static Dictionary<string, object> Error(object id, int code, string message)
        {
            return new Dictionary<string, object>
            {
                { "jsonrpc", "2.0" },
                { "error", new Dictionary<string, object> { { "code", code }, { "message", message } } },
                { "id", id },
            };
        }
    }
}
