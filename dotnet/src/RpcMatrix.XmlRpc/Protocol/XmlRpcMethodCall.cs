namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>A parsed methodCall: the method name and its parameter values.</summary>
    public sealed class XmlRpcMethodCall
    {
        public XmlRpcMethodCall(string methodName, object[] parameters)
        {
            MethodName = methodName;
            Parameters = parameters;
        }

        public string MethodName { get; private set; }
        public object[] Parameters { get; private set; }
    }
}
