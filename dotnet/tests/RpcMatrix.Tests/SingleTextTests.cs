using System;
using NUnit.Framework;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.Tests
{
    /// <summary>float32 as the shortest decimal that reads back to it (JSON-RPC's carriage).</summary>
    [TestFixture]
    public class SingleTextTests
    {
        [TestCase(0.1973659f, "0.1973659")]
        [TestCase(3.25f, "3.25")]
        [TestCase(1f, "1.0")]
        [TestCase(-0f, "-0.0")]
        [TestCase(0.1f, "0.1")]
        [TestCase(float.MaxValue, "3.4028235E+38")]
        [TestCase(float.Epsilon, "1E-45")]
        public void KnownValuesAreShortest(float value, string text)
        {
            Assert.AreEqual(text, SingleText.Format(value));
        }

        /// <summary>Every text reads back exactly, and no shorter precision would have.</summary>
        [Test]
        public void RandomValuesReadBackAndAreShortest()
        {
            var random = new Random(11);
            var bytes = new byte[4];
            for (int i = 0; i < 20000; i++)
            {
                random.NextBytes(bytes);
                float value = BitConverter.ToSingle(bytes, 0);
                if (float.IsNaN(value) || float.IsInfinity(value))
                {
                    continue;
                }
                string text = SingleText.Format(value);
                Assert.AreEqual(value, (float)DoubleText.Parse(text), text);
                int digits = SignificantDigits(text);
                if (digits > 1)
                {
                    string shorter = ((double)value).ToString("G" + (digits - 1), System.Globalization.CultureInfo.InvariantCulture);
                    Assert.AreNotEqual(value, (float)DoubleText.Parse(shorter), text + " vs " + shorter);
                }
            }
        }

        private static int SignificantDigits(string text)
        {
            string mantissa = text.Split('E')[0].Replace("-", "").Replace(".", "").TrimStart('0').TrimEnd('0');
            return Math.Max(1, mantissa.Length);
        }
    }
}
