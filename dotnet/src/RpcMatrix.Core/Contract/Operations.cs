using System.Collections.Generic;

namespace RpcMatrix.Core.Contract
{
    /// <summary>
    /// The operation table of idl/contract.json, compiled in so that dispatch needs no file: each operation's id,
    /// name, parameters, return type, the error it raises, and its call on an IBench. Servers and clients of every
    /// protocol loop over this table with their family's mapping (to and from the wire, per contract type name);
    /// OperationsTests checks it against contract.json so the two cannot drift apart.
    /// </summary>
    public static class Operations
    {
        private const string BenchError = "BenchError";

        public static readonly OperationInfo Ping = Op(0, "ping", "void", null, (b, a) => { b.Ping(); return null; });
        public static readonly OperationInfo EchoBool = Op(1, "echoBool", "bool", null, (b, a) => b.EchoBool((bool)a[0]), "value", "bool");
        public static readonly OperationInfo EchoInt8 = Op(2, "echoInt8", "int8", null, (b, a) => b.EchoInt8((sbyte)a[0]), "value", "int8");
        public static readonly OperationInfo EchoInt16 = Op(3, "echoInt16", "int16", null, (b, a) => b.EchoInt16((short)a[0]), "value", "int16");
        public static readonly OperationInfo EchoInt32 = Op(4, "echoInt32", "int32", null, (b, a) => b.EchoInt32((int)a[0]), "value", "int32");
        public static readonly OperationInfo EchoInt64 = Op(5, "echoInt64", "int64", null, (b, a) => b.EchoInt64((long)a[0]), "value", "int64");
        public static readonly OperationInfo EchoFloat32 = Op(6, "echoFloat32", "float32", null, (b, a) => b.EchoFloat32((float)a[0]), "value", "float32");
        public static readonly OperationInfo EchoFloat64 = Op(7, "echoFloat64", "float64", null, (b, a) => b.EchoFloat64((double)a[0]), "value", "float64");
        public static readonly OperationInfo EchoString = Op(8, "echoString", "string", null, (b, a) => b.EchoString((string)a[0]), "value", "string");
        public static readonly OperationInfo EchoBytes = Op(9, "echoBytes", "bytes", null, (b, a) => b.EchoBytes((byte[])a[0]), "value", "bytes");
        public static readonly OperationInfo IsPrime = Op(10, "isPrime", "bool", null, (b, a) => b.IsPrime((int)a[0]), "n", "int32");
        public static readonly OperationInfo Average = Op(11, "average", "float64", null, (b, a) => b.Average((double[])a[0]), "values", "float64[]");
        public static readonly OperationInfo RandomDoubles = Op(12, "randomDoubles", "float64[]", BenchError,
            (b, a) => b.RandomDoubles((int)a[0], (long)a[1]), "count", "int32", "seed", "int64");
        public static readonly OperationInfo LogTransform = Op(13, "logTransform", "float64[]", null, (b, a) => b.LogTransform((double[])a[0]), "values", "float64[]");
        public static readonly OperationInfo GetRecord = Op(14, "getRecord", "Record", null, (b, a) => b.GetRecord((string)a[0]), "key", "string");
        public static readonly OperationInfo SearchBooks = Op(15, "searchBooks", "Book[]", BenchError,
            (b, a) => b.SearchBooks((string)a[0], (int)a[1]), "query", "string", "count", "int32");
        public static readonly OperationInfo GetItems = Op(16, "getItems", "Item[]", BenchError, (b, a) => b.GetItems((int)a[0]), "count", "int32");
        public static readonly OperationInfo Fail = Op(17, "fail", "void", BenchError,
            (b, a) => { b.Fail((int)a[0], (string)a[1]); return null; }, "code", "int32", "message", "string");
        public static readonly OperationInfo RandomDoublesStream = new OperationInfo(18, "randomDoublesStream", "stream float64[]",
            new[] { "count", "seed", "chunk" }, new[] { "int32", "int64", "int32" }, BenchError, new[] { "server-streaming" },
            (b, a) => Concatenate(b.RandomDoublesStream((int)a[0], (long)a[1], (int)a[2])));

        /// <summary>Every operation, indexed by id.</summary>
        public static readonly OperationInfo[] All =
        {
            Ping, EchoBool, EchoInt8, EchoInt16, EchoInt32, EchoInt64, EchoFloat32, EchoFloat64, EchoString, EchoBytes,
            IsPrime, Average, RandomDoubles, LogTransform, GetRecord, SearchBooks, GetItems, Fail, RandomDoublesStream,
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

        private static OperationInfo Op(int id, string name, string returns, string raises, System.Func<IBench, object[], object> invoke,
            params string[] namesAndTypes)
        {
            var names = new string[namesAndTypes.Length / 2];
            var types = new string[namesAndTypes.Length / 2];
            for (int i = 0; i < names.Length; i++)
            {
                names[i] = namesAndTypes[2 * i];
                types[i] = namesAndTypes[2 * i + 1];
            }
            return new OperationInfo(id, name, returns, names, types, raises, new string[0], invoke);
        }

        /// <summary>A stream is checked as the concatenation of its chunks.</summary>
        private static double[] Concatenate(IEnumerable<double[]> chunks)
        {
            var all = new List<double>();
            foreach (double[] chunk in chunks)
            {
                all.AddRange(chunk);
            }
            return all.ToArray();
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
