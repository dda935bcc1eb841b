using System.Collections.Generic;

namespace RpcMatrix.Core.Contract
{
    /// <summary>One operation of the contract: its wire id, name, parameter types and return type.</summary>
    public sealed class OperationInfo
    {
        public OperationInfo(int id, string name, string returns, string[] paramNames, string[] paramTypes, string[] only)
        {
            Id = id;
            Name = name;
            Returns = returns;
            ParamNames = paramNames;
            ParamTypes = paramTypes;
            Only = only;
        }

        public int Id { get; private set; }
        public string Name { get; private set; }
        public string Returns { get; private set; }
        public string[] ParamNames { get; private set; }
        public string[] ParamTypes { get; private set; }

        /// <summary>Protocols the operation belongs to, or empty when it belongs to all.</summary>
        public string[] Only { get; private set; }

        public bool IsVoid { get { return Returns == "void"; } }

        public bool BelongsTo(string protocol)
        {
            return Only.Length == 0 || System.Array.IndexOf(Only, protocol) >= 0;
        }
    }
}
