using System;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class ValueComparerTests
    {
        [Test]
        public void FloatsCompareByBits()
        {
            Assert.IsNull(ValueComparer.CompareResult("echoFloat64", double.NaN, BitConverter.Int64BitsToDouble(0x7ff8000000000123L)));
            Assert.IsNotNull(ValueComparer.CompareResult("echoFloat64", -0.0, 0.0));
            Assert.IsNotNull(ValueComparer.CompareResult("echoFloat32", -0.0f, 0.0f));
            Assert.IsNotNull(ValueComparer.CompareResult("echoFloat64", 1.0, BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(1.0) + 1)));
        }

        [Test]
        public void LogTransformAllowsOneUlp()
        {
            double x = Math.Log(2.5);
            double next = BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(x) + 1);
            double twoAway = BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(x) + 2);
            Assert.IsNull(ValueComparer.CompareResult("logTransform", new[] { x }, new[] { next }));
            Assert.IsNotNull(ValueComparer.CompareResult("logTransform", new[] { x }, new[] { twoAway }));
            Assert.IsNotNull(ValueComparer.CompareResult("randomDoubles", new[] { x }, new[] { next }));
            Assert.IsNull(ValueComparer.CompareResult("logTransform", new[] { 0.0 }, new[] { BitConverter.Int64BitsToDouble(long.MinValue) }), "-0.0 and +0.0 are 1 ulp apart");
        }

        [Test]
        public void DifferencesNameThePath()
        {
            var bench = new ReferenceBench();
            Item[] expected = bench.GetItems(3);
            Item[] actual = new ReferenceBench().GetItems(3);
            Assert.IsNull(ValueComparer.CompareResult("getItems", expected, actual));
            Item[] changed = CopyWithWeight(actual, 2, 0.5f);
            StringAssert.StartsWith("$[2].weight: expected", ValueComparer.CompareResult("getItems", expected, changed));
            StringAssert.StartsWith("$.length: expected 3, actual 4", ValueComparer.CompareResult("echoString", "abc", "abcd"));
            Assert.AreEqual("$[1]: expected 0x01, actual 0x02", ValueComparer.CompareResult("echoBytes", new byte[] { 0, 1 }, new byte[] { 0, 2 }));
            StringAssert.StartsWith("$.id: expected", ValueComparer.CompareResult("getRecord", bench.GetRecord("a"), bench.GetRecord("b")));
        }

        [Test]
        public void IntegersAndBooleans()
        {
            Assert.IsNull(ValueComparer.CompareResult("echoInt64", long.MinValue, long.MinValue));
            Assert.AreEqual("$: expected -1, actual 1", ValueComparer.CompareResult("echoInt8", (sbyte)-1, (sbyte)1));
            Assert.AreEqual("$: expected true, actual false", ValueComparer.CompareResult("isPrime", true, false));
            Assert.IsNull(ValueComparer.CompareResult("ping", null, null));
        }

        private static Item[] CopyWithWeight(Item[] items, int index, float weight)
        {
            var copy = new Item[items.Length];
            for (int i = 0; i < items.Length; i++)
            {
                Item s = items[i];
                copy[i] = new Item
                {
                    Id = s.Id, Title = s.Title, Description = s.Description, Category = s.Category, Owner = s.Owner,
                    Created = s.Created, Updated = s.Updated, Quantity = s.Quantity, Price = s.Price,
                    Weight = i == index ? weight : s.Weight,
                };
            }
            return copy;
        }
    }
}
