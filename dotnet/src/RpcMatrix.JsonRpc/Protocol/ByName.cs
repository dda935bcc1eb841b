using System.Collections.Generic;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.JsonRpc.Protocol
{
    /// <summary>
    /// By-name params (JSON-RPC 2.0, 4.2): matched to the contract's parameter names and put in their order.
    /// Clients here send positional params; a server accepts both, as the specification lets a client choose.
    /// </summary>
    public static class ByName
    {
        public static IList<object> Positional(string method, Dictionary<string, object> named)
        {
            OperationInfo op = Operations.ByName(method);
            if (op == null)
            {
                throw new JsonRpcError(JsonRpcError.MethodNotFound, "Method not found: " + method);
            }
            var positional = new List<object>(op.ParamNames.Length);
            foreach (string name in op.ParamNames)
            {
                object value;
                if (!named.TryGetValue(name, out value))
                {
                    throw new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: missing \"" + name + "\"");
                }
                positional.Add(value);
            }
            if (named.Count != positional.Count)
            {
                throw new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: " + method + " takes only "
                    + string.Join(", ", op.ParamNames));
            }
            return positional;
        }
    }
}
