using System;
using System.Globalization;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>
    /// The comparison rules of CONTRACT.md#vectors: integers, strings and bytes exactly; floats by their bits
    /// (any NaN equals any NaN); logTransform within 1 ulp; structs field by field.
    /// Each method returns the first difference as "path: expected X, actual Y", or null when equal.
    /// </summary>
    public static class ValueComparer
    {
        public static string CompareResult(string op, object expected, object actual)
        {
            OperationInfo info = Operations.ByName(op);
            if (info == null)
            {
                throw new ArgumentException("unknown operation " + op);
            }
            string type = info.Returns == "stream float64[]" ? "float64[]" : info.Returns;
            return Compare(type, expected, actual, "$", op == "logTransform" ? 1L : 0L);
        }

        public static string Compare(string type, object expected, object actual, string path, long ulps)
        {
            if (type == "void")
            {
                return null;
            }
            if (expected == null || actual == null)
            {
                return expected == actual ? null : Difference(path, Show(expected), Show(actual));
            }
            switch (type)
            {
                case "bool": return Equal(path, (bool)expected, (bool)actual);
                case "int8": return Equal(path, (sbyte)expected, (sbyte)actual);
                case "int16": return Equal(path, (short)expected, (short)actual);
                case "int32": return Equal(path, (int)expected, (int)actual);
                case "int64":
                case "timestamp": return Equal(path, (long)expected, (long)actual);
                case "float32": return Float32(path, (float)expected, (float)actual);
                case "float64": return Float64(path, (double)expected, (double)actual, ulps);
                case "string": return String(path, (string)expected, (string)actual);
                case "bytes": return Bytes(path, (byte[])expected, (byte[])actual);
                case "float64[]": return Float64Array(path, (double[])expected, (double[])actual, ulps);
                case "string[]": return StringArray(path, (string[])expected, (string[])actual);
                case "Record": return Record(path, (Record)expected, (Record)actual);
                case "Book[]": return Array(path, (Book[])expected, (Book[])actual, Book);
                case "Item[]": return Array(path, (Item[])expected, (Item[])actual, Item);
                default: throw new ArgumentException("no comparison for type " + type);
            }
        }

        public static string Float64(string path, double expected, double actual, long ulps)
        {
            if (double.IsNaN(expected) && double.IsNaN(actual))
            {
                return null;
            }
            long e = BitConverter.DoubleToInt64Bits(expected);
            long a = BitConverter.DoubleToInt64Bits(actual);
            if (e == a || (ulps > 0 && WithinUlps(expected, actual, ulps)))
            {
                return null;
            }
            return Difference(path, FloatBits.Describe(expected), FloatBits.Describe(actual));
        }

        private static bool WithinUlps(double expected, double actual, long ulps)
        {
            if (double.IsNaN(expected) || double.IsNaN(actual) || double.IsInfinity(expected) || double.IsInfinity(actual))
            {
                return false;
            }
            // Map the bit patterns onto a monotonic integer line, so that -0.0 and +0.0 are neighbours.
            long e = Monotonic(BitConverter.DoubleToInt64Bits(expected));
            long a = Monotonic(BitConverter.DoubleToInt64Bits(actual));
            return Math.Abs(e - a) <= ulps;
        }

        private static long Monotonic(long bits)
        {
            return bits < 0 ? long.MinValue - bits : bits;
        }

        private static string Float32(string path, float expected, float actual)
        {
            if (float.IsNaN(expected) && float.IsNaN(actual))
            {
                return null;
            }
            if (FloatBits.SingleToInt32Bits(expected) == FloatBits.SingleToInt32Bits(actual))
            {
                return null;
            }
            return Difference(path, FloatBits.Describe(expected), FloatBits.Describe(actual));
        }

        private static string Equal<T>(string path, T expected, T actual) where T : IEquatable<T>, IFormattable
        {
            return expected.Equals(actual) ? null
                : Difference(path, expected.ToString(null, CultureInfo.InvariantCulture), actual.ToString(null, CultureInfo.InvariantCulture));
        }

        private static string Equal(string path, bool expected, bool actual)
        {
            return expected == actual ? null : Difference(path, Show(expected), Show(actual));
        }

        private static string String(string path, string expected, string actual)
        {
            if (string.Equals(expected, actual, StringComparison.Ordinal))
            {
                return null;
            }
            if (expected.Length != actual.Length)
            {
                return Difference(path + ".length", expected.Length.ToString(CultureInfo.InvariantCulture),
                    actual.Length.ToString(CultureInfo.InvariantCulture)) + FirstCharDifference(expected, actual);
            }
            return Difference(path, Show(expected), Show(actual)) + FirstCharDifference(expected, actual);
        }

        private static string FirstCharDifference(string expected, string actual)
        {
            int n = Math.Min(expected.Length, actual.Length);
            for (int i = 0; i < n; i++)
            {
                if (expected[i] != actual[i])
                {
                    return string.Format(CultureInfo.InvariantCulture, " (first difference at char {0}: U+{1:X4} vs U+{2:X4})",
                        i, (int)expected[i], (int)actual[i]);
                }
            }
            return "";
        }

        private static string Bytes(string path, byte[] expected, byte[] actual)
        {
            if (expected.Length != actual.Length)
            {
                return Difference(path + ".length", expected.Length.ToString(CultureInfo.InvariantCulture), actual.Length.ToString(CultureInfo.InvariantCulture));
            }
            for (int i = 0; i < expected.Length; i++)
            {
                if (expected[i] != actual[i])
                {
                    return Difference(path + "[" + i + "]", "0x" + expected[i].ToString("x2"), "0x" + actual[i].ToString("x2"));
                }
            }
            return null;
        }

        private static string Float64Array(string path, double[] expected, double[] actual, long ulps)
        {
            if (expected.Length != actual.Length)
            {
                return Difference(path + ".length", expected.Length.ToString(CultureInfo.InvariantCulture), actual.Length.ToString(CultureInfo.InvariantCulture));
            }
            for (int i = 0; i < expected.Length; i++)
            {
                string difference = Float64(path + "[" + i + "]", expected[i], actual[i], ulps);
                if (difference != null)
                {
                    return difference;
                }
            }
            return null;
        }

        private static string StringArray(string path, string[] expected, string[] actual)
        {
            return Array(path, expected, actual, String);
        }

        private static string Array<T>(string path, T[] expected, T[] actual, Func<string, T, T, string> compare)
        {
            if (expected == null || actual == null)
            {
                return expected == actual ? null : Difference(path, Show(expected), Show(actual));
            }
            if (expected.Length != actual.Length)
            {
                return Difference(path + ".length", expected.Length.ToString(CultureInfo.InvariantCulture), actual.Length.ToString(CultureInfo.InvariantCulture));
            }
            for (int i = 0; i < expected.Length; i++)
            {
                string difference = compare(path + "[" + i + "]", expected[i], actual[i]);
                if (difference != null)
                {
                    return difference;
                }
            }
            return null;
        }

        private static string Record(string path, Record e, Record a)
        {
            return Equal(path + ".id", e.Id, a.Id)
                ?? StringArray(path + ".tags", e.Tags, a.Tags)
                ?? Float64Array(path + ".values", e.Values, a.Values, 0);
        }

        private static string Book(string path, Book e, Book a)
        {
            return String(path + ".title", e.Title, a.Title)
                ?? StringArray(path + ".authors", e.Authors, a.Authors)
                ?? Float64(path + ".price", e.Price, a.Price, 0)
                ?? Float64(path + ".listPrice", e.ListPrice, a.ListPrice, 0)
                ?? String(path + ".publisher", e.Publisher, a.Publisher)
                ?? Equal(path + ".year", e.Year, a.Year)
                ?? Equal(path + ".month", e.Month, a.Month)
                ?? StringArray(path + ".keywords", e.Keywords, a.Keywords)
                ?? String(path + ".isbn", e.Isbn, a.Isbn)
                ?? Equal(path + ".starRating", e.StarRating, a.StarRating)
                ?? String(path + ".url", e.Url, a.Url);
        }

        private static string Item(string path, Item e, Item a)
        {
            return Equal(path + ".id", e.Id, a.Id)
                ?? String(path + ".title", e.Title, a.Title)
                ?? String(path + ".description", e.Description, a.Description)
                ?? String(path + ".category", e.Category, a.Category)
                ?? String(path + ".owner", e.Owner, a.Owner)
                ?? Equal(path + ".created", e.Created, a.Created)
                ?? Equal(path + ".updated", e.Updated, a.Updated)
                ?? Equal(path + ".quantity", e.Quantity, a.Quantity)
                ?? Float64(path + ".price", e.Price, a.Price, 0)
                ?? Float32(path + ".weight", e.Weight, a.Weight);
        }

        private static string Difference(string path, string expected, string actual)
        {
            return path + ": expected " + expected + ", actual " + actual;
        }

        private static string Show(object value)
        {
            if (value == null)
            {
                return "null";
            }
            if (value is bool)
            {
                return (bool)value ? "true" : "false";
            }
            var text = value as string;
            if (text != null)
            {
                return "\"" + (text.Length > 60 ? text.Substring(0, 60) + "..." : text) + "\"";
            }
            return value.ToString();
        }
    }
}
