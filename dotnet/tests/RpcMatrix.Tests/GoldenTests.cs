using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;
using RpcMatrix.RawTcp;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// idl/golden.json: the generator and the reference behaviour against digests computed once for every
    /// language, each over the raw TCP encoding of the value (FNV-1a 64 and byte length).
    /// </summary>
    [TestFixture]
    public class GoldenTests
    {
        private static Dictionary<string, object> Golden()
        {
            return (Dictionary<string, object>)JsonParser.Parse(File.ReadAllText(Path.Combine(IdlPaths.Directory, "golden.json")));
        }

        public static IEnumerable<TestCaseData> Answers()
        {
            return ((List<object>)Golden()["answers"]).Cast<Dictionary<string, object>>()
                .Select(c => new TestCaseData(c).SetName("Answer " + c["op"] + " " + JsonWriter.Write(c["args"])));
        }

        public static IEnumerable<TestCaseData> Generated()
        {
            return ((List<object>)Golden()["generated"]).Cast<Dictionary<string, object>>()
                .Select(c => new TestCaseData(c).SetName("Generated " + JsonWriter.Write(c["form"])));
        }

        [TestCaseSource("Answers")]
        public void ReferenceAnswerMatches(Dictionary<string, object> golden)
        {
            OperationInfo op = Operations.ByName((string)golden["op"]);
            object[] args = ValueDecoder.DecodeArguments(op.ParamTypes, (List<object>)golden["args"]);
            object answer = op.Invoke(new ReferenceBench(), args);
            Assert.AreEqual(op.Returns, golden["type"]);
            AssertDigest(golden, Encode(op.Returns, answer));
            if (golden.ContainsKey("value_bits"))
            {
                Assert.AreEqual((string)golden["value_bits"], BitConverter.DoubleToInt64Bits((double)answer).ToString("x16"));
            }
        }

        [TestCaseSource("Generated")]
        public void GeneratedArgumentMatches(Dictionary<string, object> golden)
        {
            string type = (string)golden["type"];
            AssertDigest(golden, Encode(type, ValueDecoder.Decode(type, golden["form"])));
        }

        private static void AssertDigest(Dictionary<string, object> golden, byte[] encoded)
        {
            Assert.AreEqual(long.Parse(golden["bytes"].ToString()), encoded.Length, "encoded length");
            Assert.AreEqual((string)golden["fnv1a64"], Fnv1a64.Hash(encoded).ToString("x16"), "FNV-1a 64");
        }

        /// <summary>The value alone in the raw TCP encoding (a frame body without its length prefix).</summary>
        private static byte[] Encode(string type, object value)
        {
            var w = new FrameWriter();
            switch (type)
            {
                case "float64": w.Float64((double)value); break;
                case "float64[]": w.Float64Array((double[])value); break;
                case "bytes": w.Bytes((byte[])value); break;
                case "Record": RawTcpMapping.Write(w, (Record)value); break;
                case "Book[]": RawTcpMapping.Write(w, (Book[])value); break;
                case "Item[]": RawTcpMapping.Write(w, (Item[])value); break;
                default: throw new ArgumentException("no golden encoding for " + type);
            }
            var frame = new MemoryStream();
            w.WriteFrameTo(frame);
            return frame.ToArray().Skip(4).ToArray();
        }
    }
}
