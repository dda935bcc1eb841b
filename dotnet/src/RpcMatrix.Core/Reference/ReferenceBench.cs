using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Text;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Reference
{
    /// <summary>
    /// The contract's behaviour: servers answer with it, clients compute expected answers with it.
    /// </summary>
    public sealed class ReferenceBench : IBench
    {
        private const int NegativeCountCode = 400;
        private const string NegativeCountMessage = "count must not be negative";

        // Gredler's lists were static, and the contract allows caching per count.
        private readonly ConcurrentDictionary<int, Item[]> itemsByCount = new ConcurrentDictionary<int, Item[]>();

        public void Ping()
        {
        }

        public bool EchoBool(bool value) { return value; }
        public sbyte EchoInt8(sbyte value) { return value; }
        public short EchoInt16(short value) { return value; }
        public int EchoInt32(int value) { return value; }
        public long EchoInt64(long value) { return value; }
        public float EchoFloat32(float value) { return value; }
        public double EchoFloat64(double value) { return value; }
        public string EchoString(string value) { return value; }
        public byte[] EchoBytes(byte[] value) { return value; }

        public bool IsPrime(int n)
        {
            if (n < 2)
            {
                return false;
            }
            if (n % 2 == 0)
            {
                return n == 2;
            }
            for (long d = 3; d * d <= n; d += 2)
            {
                if (n % d == 0)
                {
                    return false;
                }
            }
            return true;
        }

        public double Average(double[] values)
        {
            if (values.Length == 0)
            {
                return 0.0;
            }
            double sum = 0.0;
            foreach (double v in values)
            {
                sum += v;
            }
            return sum / values.Length;
        }

        public double[] RandomDoubles(int count, long seed)
        {
            RequireCount(count);
            var rng = new SplitMix64(seed);
            var values = new double[count];
            for (int i = 0; i < count; i++)
            {
                values[i] = rng.NextDouble();
            }
            return values;
        }

        public double[] LogTransform(double[] values)
        {
            var result = new double[values.Length];
            for (int i = 0; i < values.Length; i++)
            {
                result[i] = Math.Log(values[i]);
            }
            return result;
        }

        public Record GetRecord(string key)
        {
            var rng = new SplitMix64(Fnv1a64.HashUtf8(key));
            var record = new Record { Id = rng.Signed64(), Tags = new string[8], Values = new double[16] };
            for (int i = 0; i < record.Tags.Length; i++)
            {
                record.Tags[i] = rng.Word(12);
            }
            for (int i = 0; i < record.Values.Length; i++)
            {
                record.Values[i] = rng.NextDouble() * 1000.0;
            }
            return record;
        }

        public Book[] SearchBooks(string query, int count)
        {
            RequireCount(count);
            var rng = new SplitMix64(Fnv1a64.HashUtf8(query));
            var books = new Book[count];
            for (int i = 0; i < count; i++)
            {
                books[i] = NextBook(rng);
            }
            return books;
        }

        public Item[] GetItems(int count)
        {
            RequireCount(count);
            return itemsByCount.GetOrAdd(count, MakeItems);
        }

        public void Fail(int code, string message)
        {
            throw new BenchError(code, message);
        }

        public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk)
        {
            if (chunk <= 0)
            {
                throw new BenchError(NegativeCountCode, "chunk must be positive");
            }
            double[] all = RandomDoubles(count, seed);
            return Chunks(all, chunk);
        }

        private static IEnumerable<double[]> Chunks(double[] all, int chunk)
        {
            for (int start = 0; start < all.Length; start += chunk)
            {
                var part = new double[Math.Min(chunk, all.Length - start)];
                Array.Copy(all, start, part, 0, part.Length);
                yield return part;
            }
        }

        private static void RequireCount(int count)
        {
            if (count < 0)
            {
                throw new BenchError(NegativeCountCode, NegativeCountMessage);
            }
        }

        private static Book NextBook(SplitMix64 rng)
        {
            var book = new Book();
            book.Title = rng.Word(40);
            book.Authors = Words(rng, 1 + (int)rng.Below(3), 20);
            book.Price = rng.Below(10000) / 100.0;
            book.ListPrice = book.Price + rng.Below(5000) / 100.0;
            book.Publisher = rng.Word(24);
            book.Year = 1950 + (int)rng.Below(76);
            book.Month = 1 + (int)rng.Below(12);
            book.Keywords = Words(rng, (int)rng.Below(6), 10);
            var isbn = new StringBuilder("978", 13);
            for (int i = 0; i < 10; i++)
            {
                isbn.Append((char)('0' + rng.Below(10)));
            }
            book.Isbn = isbn.ToString();
            book.StarRating = (int)rng.Below(6);
            book.Url = "https://books.example.org/isbn/" + book.Isbn;
            return book;
        }

        private static string[] Words(SplitMix64 rng, int count, int length)
        {
            var words = new string[count];
            for (int i = 0; i < count; i++)
            {
                words[i] = rng.Word(length);
            }
            return words;
        }

        private static Item[] MakeItems(int count)
        {
            var rng = new SplitMix64((long)count);
            var items = new Item[count];
            for (int i = 0; i < count; i++)
            {
                var item = new Item();
                item.Id = rng.Signed64();
                item.Title = rng.Word(40);
                item.Description = rng.Word(40);
                item.Category = rng.Word(40);
                item.Owner = rng.Word(40);
                item.Created = 1000000000000L + rng.Below(1000000000000L);
                item.Updated = item.Created + rng.Below(1000000000L);
                item.Quantity = rng.Signed32();
                item.Price = rng.NextDouble() * 1000000.0;
                item.Weight = (float)rng.NextDouble();
                items[i] = item;
            }
            return items;
        }
    }
}
