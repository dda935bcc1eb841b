using System;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Numbers;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class ValueDecoderTests
    {
        private static object Decode(string type, string json)
        {
            return ValueDecoder.Decode(type, JsonParser.Parse(json));
        }

        [Test]
        public void Integers()
        {
            Assert.AreEqual((sbyte)-128, Decode("int8", "-128"));
            Assert.AreEqual((short)32767, Decode("int16", "32767"));
            Assert.AreEqual(int.MinValue, Decode("int32", "-2147483648"));
            Assert.AreEqual(long.MinValue, Decode("int64", "\"-9223372036854775808\""));
            Assert.Throws<FormatException>(() => Decode("int8", "128"));
            Assert.Throws<FormatException>(() => Decode("int64", "42"));
        }

        [Test]
        public void Floats()
        {
            Assert.AreEqual(1, FloatBits.SingleToInt32Bits((float)Decode("float32", "\"0x00000001\"")));
            Assert.AreEqual(0x3dcccccd, FloatBits.SingleToInt32Bits((float)Decode("float32", "\"0x3dcccccd\"")));
            Assert.AreEqual(unchecked((int)0x80000000), FloatBits.SingleToInt32Bits((float)Decode("float32", "\"-0.0\"")));
            Assert.AreEqual(unchecked((long)0x8000000000000000UL), BitConverter.DoubleToInt64Bits((double)Decode("float64", "\"-0.0\"")));
            Assert.AreEqual(0x7fefffffffffffffL, BitConverter.DoubleToInt64Bits((double)Decode("float64", "\"0x7fefffffffffffff\"")));
            Assert.IsTrue(double.IsNaN((double)Decode("float64", "\"NaN\"")));
            Assert.AreEqual(double.NegativeInfinity, Decode("float64", "\"-Infinity\""));
            Assert.AreEqual(3.141592653589793, Decode("float64", "3.141592653589793"));
        }

        [Test]
        public void RepeatedString()
        {
            var s = (string)Decode("string", "{\"repeat\": \"abc\", \"length\": 7}");
            Assert.AreEqual("abcabca", s);
            Assert.AreEqual("𝄞", Decode("string", "\"\\ud834\\udd1e\""));
        }

        [Test]
        public void Bytes()
        {
            Assert.AreEqual(new byte[] { 1, 2, 3 }, Decode("bytes", "{\"base64\": \"AQID\"}"));
            var all = (byte[])Decode("bytes", "{\"allByteValues\": true}");
            Assert.AreEqual(256, all.Length);
            Assert.AreEqual(255, all[255]);
            var random = (byte[])Decode("bytes", "{\"randomBytes\": {\"count\": 10, \"seed\": 11}}");
            var rng = new SplitMix64(11L);
            ulong first = rng.Next();
            ulong second = rng.Next();
            Assert.AreEqual((byte)first, random[0]);
            Assert.AreEqual((byte)(first >> 56), random[7]);
            Assert.AreEqual((byte)(second >> 8), random[9]);
            Assert.AreEqual(10, random.Length);
        }

        [Test]
        public void RandomDoublesWithOffset()
        {
            var values = (double[])Decode("float64[]", "{\"randomDoubles\": {\"count\": 2, \"seed\": 3, \"offset\": 1.0}}");
            var rng = new SplitMix64(3L);
            Assert.AreEqual(new[] { 1.0 + rng.NextDouble(), 1.0 + rng.NextDouble() }, values);
            Assert.AreEqual(new[] { 1.0, 2.0, 4.5 }, Decode("float64[]", "[1.0, 2.0, 4.5]"));
        }

        [Test]
        public void EveryVectorOfTheContractDecodes()
        {
            IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
            var file = (Dictionary<string, object>)JsonParser.Parse(File.ReadAllText(Path.Combine(IdlPaths.Directory, "vectors.json")));
            Assert.AreEqual(((List<object>)file["vectors"]).Count, idl.Vectors.Count, "every vector of the file is loaded");
            foreach (Vector v in idl.Vectors)
            {
                if (v.Session != null)
                {
                    continue; // a calculator script, no operation (CalculatorSessionTests)
                }
                var op = RpcMatrix.Core.Contract.Operations.ByName(v.Op);
                Assert.IsNotNull(op, v.Id);
                Assert.AreEqual(op.ParamTypes.Length, ValueDecoder.DecodeArguments(op.ParamTypes, v.Args).Length, v.Id);
            }
            foreach (KeyValuePair<string, Workload> w in idl.Workloads)
            {
                if (w.Value.Session != null)
                {
                    continue;
                }
                var op = RpcMatrix.Core.Contract.Operations.ByName(w.Value.Op);
                ValueDecoder.DecodeArguments(op.ParamTypes, w.Value.Args);
            }
        }
    }
}
