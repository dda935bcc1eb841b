using System.Collections.Generic;

namespace RpcMatrix.Core.Contract
{
    /// <summary>
    /// The operation table of idl/contract.json, compiled in so that dispatch needs no file.
    /// A unit test checks it against contract.json so the two cannot drift apart.
    /// </summary>
    public static class Operations
    {
        private static readonly string[] None = new string[0];

        public static readonly OperationInfo[] All =
        {
            Op(0, "ping", "void"),
            Op(1, "echoBool", "bool", "value", "bool"),
            Op(2, "echoInt8", "int8", "value", "int8"),
            Op(3, "echoInt16", "int16", "value", "int16"),
            Op(4, "echoInt32", "int32", "value", "int32"),
            Op(5, "echoInt64", "int64", "value", "int64"),
            Op(6, "echoFloat32", "float32", "value", "float32"),
            Op(7, "echoFloat64", "float64", "value", "float64"),
            Op(8, "echoString", "string", "value", "string"),
            Op(9, "echoBytes", "bytes", "value", "bytes"),
            Op(10, "isPrime", "bool", "n", "int32"),
            Op(11, "average", "float64", "values", "float64[]"),
            Op(12, "randomDoubles", "float64[]", "count", "int32", "seed", "int64"),
            Op(13, "logTransform", "float64[]", "values", "float64[]"),
            Op(14, "getRecord", "Record", "key", "string"),
            Op(15, "searchBooks", "Book[]", "query", "string", "count", "int32"),
            Op(16, "getItems", "Item[]", "count", "int32"),
            Op(17, "fail", "void", "code", "int32", "message", "string"),
            new OperationInfo(18, "randomDoublesStream", "stream float64[]",
                new[] { "count", "seed", "chunk" }, new[] { "int32", "int64", "int32" }, new[] { "server-streaming" }),
        };

        private static readonly Dictionary<string, OperationInfo> ByNameTable = BuildByName();

        public static OperationInfo ByName(string name)
        {
            OperationInfo op;
            return name != null && ByNameTable.TryGetValue(name, out op) ? op : null;
        }

        public static OperationInfo ById(int id)
        {
            return id >= 0 && id < All.Length ? All[id] : null;
        }

        private static OperationInfo Op(int id, string name, string returns, params string[] namesAndTypes)
        {
            var names = new string[namesAndTypes.Length / 2];
            var types = new string[namesAndTypes.Length / 2];
            for (int i = 0; i < names.Length; i++)
            {
                names[i] = namesAndTypes[2 * i];
                types[i] = namesAndTypes[2 * i + 1];
            }
            return new OperationInfo(id, name, returns, names, types, None);
        }

        private static Dictionary<string, OperationInfo> BuildByName()
        {
            var table = new Dictionary<string, OperationInfo>();
            foreach (var op in All)
            {
                table.Add(op.Name, op);
            }
            return table;
        }
    }
}
