using System;
using System.Linq;
using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class ReferenceBenchTests
    {
        private readonly ReferenceBench bench = new ReferenceBench();

        [Test]
        public void IsPrime()
        {
            Assert.IsFalse(bench.IsPrime(-7));
            Assert.IsFalse(bench.IsPrime(0));
            Assert.IsFalse(bench.IsPrime(1));
            Assert.IsTrue(bench.IsPrime(2));
            Assert.IsTrue(bench.IsPrime(3));
            Assert.IsFalse(bench.IsPrime(9));
            Assert.IsTrue(bench.IsPrime(1000003));
            Assert.IsTrue(bench.IsPrime(int.MaxValue));
            Assert.IsFalse(bench.IsPrime(int.MaxValue - 1));
            // 46337 is the largest prime below sqrt(2^31): its square needs the last divisor tried.
            Assert.IsFalse(bench.IsPrime(46337 * 46337));
        }

        [Test]
        public void AverageSumsLeftToRight()
        {
            Assert.AreEqual(0.0, bench.Average(new double[0]));
            Assert.AreEqual(7.5 / 3, bench.Average(new[] { 1.0, 2.0, 4.5 }));
            // Left to right: (1e16 + 1) + 1 loses both ones; another order would not.
            Assert.AreEqual((1e16 + 1.0 + 1.0) / 3, bench.Average(new[] { 1e16, 1.0, 1.0 }));
        }

        [Test]
        public void RandomDoubles()
        {
            double[] values = bench.RandomDoubles(3, 7);
            var rng = new SplitMix64(7L);
            Assert.AreEqual(new[] { rng.NextDouble(), rng.NextDouble(), rng.NextDouble() }, values);
            Assert.AreEqual(0, bench.RandomDoubles(0, 1).Length);
        }

        [Test]
        public void NegativeCountRaisesBenchError400()
        {
            foreach (Action call in new Action[] { () => bench.RandomDoubles(-1, 0), () => bench.SearchBooks("q", -1), () => bench.GetItems(-5) })
            {
                var error = Assert.Throws<BenchError>(() => call());
                Assert.AreEqual(400, error.Code);
                Assert.AreEqual("count must not be negative", error.Message);
            }
        }

        [Test]
        public void FailRaisesTheGivenError()
        {
            var error = Assert.Throws<BenchError>(() => bench.Fail(-1, "<&> Grüße 𝄞"));
            Assert.AreEqual(-1, error.Code);
            Assert.AreEqual("<&> Grüße 𝄞", error.Message);
        }

        [Test]
        public void RecordFollowsTheDrawOrder()
        {
            Record record = bench.GetRecord("record-42");
            var rng = new SplitMix64(Fnv1a64.HashUtf8("record-42"));
            Assert.AreEqual(rng.Signed64(), record.Id);
            for (int i = 0; i < 8; i++)
            {
                Assert.AreEqual(rng.Word(12), record.Tags[i]);
            }
            for (int i = 0; i < 16; i++)
            {
                Assert.AreEqual(rng.NextDouble() * 1000.0, record.Values[i]);
            }
        }

        [Test]
        public void BooksHaveTheContractShape()
        {
            Book[] books = bench.SearchBooks("distributed systems", 100);
            Assert.AreEqual(100, books.Length);
            foreach (Book b in books)
            {
                Assert.AreEqual(40, b.Title.Length);
                Assert.That(b.Authors.Length, Is.InRange(1, 3));
                Assert.That(b.Keywords.Length, Is.InRange(0, 5));
                Assert.That(b.ListPrice, Is.GreaterThanOrEqualTo(b.Price));
                Assert.That(b.Year, Is.InRange(1950, 2025));
                Assert.That(b.Month, Is.InRange(1, 12));
                StringAssert.IsMatch("^978[0-9]{10}$", b.Isbn);
                Assert.AreEqual("https://books.example.org/isbn/" + b.Isbn, b.Url);
                Assert.That(b.StarRating, Is.InRange(0, 5));
            }
            Assert.IsTrue(books.Any(b => b.Keywords.Length == 0));
        }

        [Test]
        public void FirstItemFollowsTheDrawOrder()
        {
            Item item = bench.GetItems(1)[0];
            var rng = new SplitMix64(1L);
            Assert.AreEqual(rng.Signed64(), item.Id);
            Assert.AreEqual(rng.Word(40), item.Title);
            Assert.AreEqual(rng.Word(40), item.Description);
            Assert.AreEqual(rng.Word(40), item.Category);
            Assert.AreEqual(rng.Word(40), item.Owner);
            long created = 1000000000000L + rng.Below(1000000000000L);
            Assert.AreEqual(created, item.Created);
            Assert.AreEqual(created + rng.Below(1000000000L), item.Updated);
            Assert.AreEqual(rng.Signed32(), item.Quantity);
            Assert.AreEqual(rng.NextDouble() * 1000000.0, item.Price);
            Assert.AreEqual((float)rng.NextDouble(), item.Weight);
        }

        [Test]
        public void LogTransform()
        {
            Assert.AreEqual(new[] { 0.0, Math.Log(2.5) }, bench.LogTransform(new[] { 1.0, 2.5 }));
            double[] edges = bench.LogTransform(new[] { 0.0, -1.0 });
            Assert.AreEqual(double.NegativeInfinity, edges[0]);
            Assert.IsTrue(double.IsNaN(edges[1]));
        }

        [Test]
        public void StreamChunksConcatenateToRandomDoubles()
        {
            var chunks = bench.RandomDoublesStream(10001, 3, 1000).ToList();
            Assert.AreEqual(11, chunks.Count);
            Assert.AreEqual(1, chunks[10].Length);
            Assert.AreEqual(bench.RandomDoubles(10001, 3), chunks.SelectMany(c => c).ToArray());
        }
    }
}
