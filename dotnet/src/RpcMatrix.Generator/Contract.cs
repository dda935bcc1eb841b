using System;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace RpcMatrix.Generator
{
    /// <summary>What the generator reads of idl/contract.json: its struct names and its operations, in file order.</summary>
    public sealed class Contract
    {
        public readonly string[] Structs;
        public readonly Operation[] Operations;

        public Contract(string path)
        {
            JObject root = JObject.Parse(File.ReadAllText(path));
            Structs = ((JObject)root["structs"]).Properties().Select(p => p.Name).ToArray();
            Operations = ((JArray)root["operations"]).Cast<JObject>().Select(o => new Operation(o)).ToArray();
        }
    }

    /// <summary>One operation of contract.json.</summary>
    public sealed class Operation
    {
        /// <summary>The contract's name ("anOperation"): the wire's.</summary>
        public readonly string Name;

        /// <summary>Its parameters' names and contract types, in order.</summary>
        public readonly Parameter[] Parameters;

        /// <summary>The contract's type name of the result ("int32", "Item[]", "void", "stream float64[]").</summary>
        public readonly string Returns;

        /// <summary>"BenchError" when the operation declares it, else null.</summary>
        public readonly string Raises;

        public Operation(JObject json)
        {
            Name = (string)json["name"];
            Parameters = ((JArray)json["params"]).Cast<JObject>().Select(p => new Parameter((string)p["name"], (string)p["type"])).ToArray();
            Returns = (string)json["returns"];
            Raises = (string)json["raises"];
        }

        /// <summary>The C# name of its IBench method and of its row in Operations ("AnOperation").</summary>
        public string Method { get { return CSharp.Pascal(Name); } }

        public bool IsVoid { get { return Returns == "void"; } }

        public bool IsStream { get { return Returns.StartsWith("stream ", StringComparison.Ordinal); } }
    }

    public struct Parameter
    {
        public readonly string Name;
        public readonly string Type;

        public Parameter(string name, string type)
        {
            Name = name;
            Type = type;
        }
    }
}
