using NUnit.Framework;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class GeneratorTests
    {
        [Test]
        public void SplitMix64ReferenceValues()
        {
            var rng = new SplitMix64(0L);
            Assert.AreEqual(0xE220A8397B1DCDAFUL, rng.Next());
            Assert.AreEqual(0x6E789E6AA1B965F4UL, rng.Next());
        }

        [Test]
        public void Fnv1a64ReferenceValues()
        {
            Assert.AreEqual(0xCBF29CE484222325UL, Fnv1a64.HashUtf8(""));
            Assert.AreEqual(0xAF63DC4C8601EC8CUL, Fnv1a64.HashUtf8("a"));
        }

        [Test]
        public void NextDoubleIsTheTop53BitsScaled()
        {
            ulong first = new SplitMix64(0L).Next();
            double expected = (first >> 11) / 9007199254740992.0;
            Assert.AreEqual(expected, new SplitMix64(0L).NextDouble());
        }

        [Test]
        public void SignedViewsOfTheSameWord()
        {
            Assert.AreEqual(unchecked((long)0xE220A8397B1DCDAFUL), new SplitMix64(0L).Signed64());
            Assert.AreEqual(unchecked((int)0xE220A839U), new SplitMix64(0L).Signed32());
        }

        [Test]
        public void BelowUsesTheLogicalShiftOfNext()
        {
            Assert.AreEqual((long)((0xE220A8397B1DCDAFUL >> 1) % 62), new SplitMix64(0L).Below(62));
        }

        [Test]
        public void WordDrawsFromTheAlphabet()
        {
            string word = new SplitMix64(5L).Word(100);
            Assert.AreEqual(100, word.Length);
            StringAssert.IsMatch("^[A-Za-z0-9]+$", word);
        }

        [Test]
        public void NegativeSeedIsTakenAsItsBitPattern()
        {
            Assert.AreEqual(new SplitMix64(0x8000000000000000UL).Next(), new SplitMix64(long.MinValue).Next());
        }
    }
}
