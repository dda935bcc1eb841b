using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Tests
{
    /// <summary>The compiled-in operation table must match idl/contract.json.</summary>
    [TestFixture]
    public class OperationsTests
    {
        [Test]
        public void TableMatchesContractJson()
        {
            var root = (Dictionary<string, object>)JsonParser.Parse(File.ReadAllText(Path.Combine(IdlPaths.Directory, "contract.json")));
            var operations = (List<object>)root["operations"];
            Assert.AreEqual(operations.Count, Operations.All.Length);
            foreach (Dictionary<string, object> json in operations)
            {
                OperationInfo op = Operations.ByName((string)json["name"]);
                Assert.IsNotNull(op, (string)json["name"]);
                Assert.AreEqual(int.Parse(json["id"].ToString()), op.Id);
                Assert.AreSame(op, Operations.ById(op.Id));
                Assert.AreEqual(json["returns"], op.Returns, op.Name);
                var parameters = ((List<object>)json["params"]).Cast<Dictionary<string, object>>().ToList();
                Assert.AreEqual(parameters.Select(p => (string)p["name"]).ToArray(), op.ParamNames, op.Name);
                Assert.AreEqual(parameters.Select(p => (string)p["type"]).ToArray(), op.ParamTypes, op.Name);
                var needs = json.ContainsKey("needs") ? ((List<object>)json["needs"]).Cast<string>().ToArray() : new string[0];
                Assert.AreEqual(needs, op.Needs, op.Name);
            }
        }
    }
}
