using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace RpcMatrix.Generator
{
    /// <summary>What the generator reads of idl/contract.json: its struct names and its operations, in file order.</summary>
    public sealed class Contract
    {
        private Contract(string[] structs, Operation[] operations)
        {
            Structs = structs;
            Operations = operations;
        }

        public string[] Structs { get; private set; }
        public Operation[] Operations { get; private set; }

        public static Contract Read(string path)
        {
            JObject root = JObject.Parse(File.ReadAllText(path));
            string[] structs = ((JObject)root["structs"]).Properties().Select(p => p.Name).ToArray();
            Operation[] operations = ((JArray)root["operations"]).Cast<JObject>().Select(o => new Operation(
                (int)o["id"],
                (string)o["name"],
                ((JArray)o["params"]).Cast<JObject>().Select(p => new Parameter((string)p["name"], (string)p["type"])).ToArray(),
                (string)o["returns"],
                (string)o["raises"])).ToArray();
            return new Contract(structs, operations);
        }
    }

    public sealed class Operation
    {
        public Operation(int id, string name, Parameter[] parameters, string returns, string raises)
        {
            Id = id;
            Name = name;
            Parameters = parameters;
            Returns = returns;
            Raises = raises;
        }

        public int Id { get; private set; }

        /// <summary>The contract's name ("anOperation"): the wire's.</summary>
        public string Name { get; private set; }

        public Parameter[] Parameters { get; private set; }

        /// <summary>The contract's type name of the result ("int32", "Item[]", "void", "stream float64[]").</summary>
        public string Returns { get; private set; }

        /// <summary>"BenchError" when the operation declares it, else null.</summary>
        public string Raises { get; private set; }

        /// <summary>The C# name of its IBench method and of its row in Operations ("AnOperation").</summary>
        public string Method { get { return CSharp.Pascal(Name); } }

        public bool IsVoid { get { return Returns == "void"; } }

        public bool IsStream { get { return Returns.StartsWith("stream ", StringComparison.Ordinal); } }
    }

    public sealed class Parameter
    {
        public Parameter(string name, string type)
        {
            Name = name;
            Type = type;
        }

        public string Name { get; private set; }
        public string Type { get; private set; }
    }
}
