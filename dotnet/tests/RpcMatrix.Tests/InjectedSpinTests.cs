using System;
using System.Diagnostics;
using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class InjectedSpinTests
    {
        [Test]
        public void WithoutAValueTheReferenceItselfAnswers()
        {
            var reference = new ReferenceBench();
            Assert.AreSame(reference, InjectedSpin.Around(reference, null));
            Assert.AreSame(reference, InjectedSpin.Around(reference, "0"));
        }

        [Test]
        public void EachCallSpinsAtLeastTheTimeAskedAndAnswersAsTheReference()
        {
            IBench spun = InjectedSpin.Around(new ReferenceBench(), "2000");
            var watch = Stopwatch.StartNew();
            for (int i = 0; i < 5; i++)
            {
                spun.Ping();
            }
            Assert.GreaterOrEqual(watch.Elapsed.TotalMilliseconds, 10.0);
            Assert.AreEqual("abc", spun.EchoString("abc"));
            Assert.AreEqual(new ReferenceBench().GetItems(10).Length, spun.GetItems(10).Length);
            var error = Assert.Throws<BenchError>(() => spun.Fail(7, "seven"));
            Assert.AreEqual(7, error.Code);
        }

        [TestCase("fast")]
        [TestCase("-1")]
        [TestCase("1.5")]
        [TestCase("1000001")]
        public void AValueThatIsNotWholeMicrosecondsIsRefused(string value)
        {
            var e = Assert.Throws<ArgumentException>(() => InjectedSpin.Ticks(value));
            StringAssert.Contains(InjectedSpin.Variable, e.Message);
        }
    }
}
