using System;
using NUnit.Framework;
using RpcMatrix.Core.Numbers;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class DoubleTextTests
    {
        private static long Bits(double d) { return BitConverter.DoubleToInt64Bits(d); }

        [TestCase("0.1", 0x3FB999999999999AL)]
        [TestCase("3.141592653589793", 0x400921FB54442D18L)]
        [TestCase("-0.0", unchecked((long)0x8000000000000000UL))]
        [TestCase("-0", unchecked((long)0x8000000000000000UL))]
        [TestCase("5e-324", 0x0000000000000001L)]
        [TestCase("4.9406564584124654E-324", 0x0000000000000001L)]
        [TestCase("2.2250738585072009e-308", 0x000FFFFFFFFFFFFFL)]
        [TestCase("2.2250738585072011e-308", 0x000FFFFFFFFFFFFFL)]
        [TestCase("2.2250738585072014E-308", 0x0010000000000000L)]
        [TestCase("1.7976931348623157e308", 0x7FEFFFFFFFFFFFFFL)]
        [TestCase("1e400", 0x7FF0000000000000L)]
        [TestCase("1e-400", 0L)]
        [TestCase("+1.5", 0x3FF8000000000000L)]
        [TestCase(".5", 0x3FE0000000000000L)]
        [TestCase("5.", 0x4014000000000000L)]
        // Mono 6.8's double.Parse returns these 1 ulp off; the contract needs them exact.
        [TestCase("192.7549988689711", 0x40681828F36357EEL)]
        [TestCase("-6.73255993092862e-248", unchecked((long)0x8C9E208685D2E668UL))]
        [TestCase("6.984971462299466e+112", 0x575D0B6E970FCB38L)]
        public void ParsesCorrectlyRounded(string text, long bits)
        {
            Assert.AreEqual(bits.ToString("x16"), Bits(DoubleText.Parse(text)).ToString("x16"));
        }

        [TestCase("")]
        [TestCase("-")]
        [TestCase(".")]
        [TestCase("1e")]
        [TestCase("1.2.3")]
        [TestCase(" 1")]
        [TestCase("NaN")]
        [TestCase("Infinity")]
        [TestCase("0x10")]
        public void RejectsWhatIsNotADecimalNumber(string text)
        {
            double ignored;
            Assert.IsFalse(DoubleText.TryParse(text, out ignored));
        }

        [Test]
        public void FormatRoundTripsGeneratedAndRawBitPatterns()
        {
            var rng = new SplitMix64(99L);
            for (int i = 0; i < 20000; i++)
            {
                double d = i % 2 == 0 ? rng.NextDouble() * 1000.0 : BitConverter.Int64BitsToDouble((long)rng.Next());
                if (double.IsNaN(d) || double.IsInfinity(d))
                {
                    continue;
                }
                Assert.AreEqual(Bits(d), Bits(DoubleText.Parse(DoubleText.Format(d))), "value bits " + Bits(d).ToString("x16"));
            }
        }

        [Test]
        public void FormatKeepsNegativeZeroAndSubnormals()
        {
            Assert.AreEqual("-0.0", DoubleText.Format(-0.0));
            Assert.AreEqual("0.0", DoubleText.Format(0.0));
            Assert.AreEqual("1.0", DoubleText.Format(1.0));
            Assert.AreEqual("0.1", DoubleText.Format(0.1));
            Assert.AreEqual("12.34", DoubleText.Format(12.34));
            Assert.AreEqual("3.1415926535897931", DoubleText.Format(3.141592653589793));
            Assert.AreEqual(1L, Bits(DoubleText.Parse(DoubleText.Format(double.Epsilon))));
            Assert.AreEqual(0x000FFFFFFFFFFFFFL, Bits(DoubleText.Parse(DoubleText.Format(BitConverter.Int64BitsToDouble(0x000FFFFFFFFFFFFFL)))));
        }

        [Test]
        public void FormatRefusesNonFinite()
        {
            Assert.Throws<ArgumentException>(() => DoubleText.Format(double.NaN));
            Assert.Throws<ArgumentException>(() => DoubleText.Format(double.NegativeInfinity));
        }

        [Test]
        public void ExactSingleCheck()
        {
            Assert.IsTrue(FloatBits.IsExactSingle(1.5));
            Assert.IsTrue(FloatBits.IsExactSingle((double)0.1f));
            Assert.IsFalse(FloatBits.IsExactSingle(0.1));
            Assert.IsFalse(FloatBits.IsExactSingle(1e300));
            Assert.IsTrue(FloatBits.IsExactSingle(-0.0));
        }
    }
}
