using System.Collections.Generic;

namespace RpcMatrix.Core.Contract
{
    /// <summary>One operation of the contract: its wire id, name, parameter types and return type.</summary>
    public sealed class OperationInfo
    {
        public OperationInfo(int id, string name, string returns, string[] paramNames, string[] paramTypes, string[] needs)
        {
            Id = id;
            Name = name;
            Returns = returns;
            ParamNames = paramNames;
            ParamTypes = paramTypes;
            Needs = needs;
        }

        public int Id { get; private set; }
        public string Name { get; private set; }
        public string Returns { get; private set; }
        public string[] ParamNames { get; private set; }
        public string[] ParamTypes { get; private set; }

        /// <summary>Capabilities of idl/protocols.json every call of this operation needs.</summary>
        public string[] Needs { get; private set; }

        public bool IsVoid { get { return Returns == "void"; } }
    }
}
