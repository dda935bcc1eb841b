using System;
using System.Globalization;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Numbers;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// The contract's values as bench.xsd text where XmlSerializer is not exact: xs:double and xs:float (Mono's
    /// XmlConvert is not correctly rounded and loses the sign of -0.0), and the structs that carry them.
    /// </summary>
    public static class SoapCarriage
    {
        public static string Double(double value)
        {
            if (double.IsNaN(value)) return "NaN";
            if (double.IsPositiveInfinity(value)) return "INF";
            if (double.IsNegativeInfinity(value)) return "-INF";
            return DoubleText.Format(value);
        }

        /// <summary>xs:double's lexical space: decimal or exponent notation, INF, -INF, NaN; whitespace collapsed.</summary>
        public static double ToDouble(string text)
        {
            if (text == null)
            {
                throw new FormatException("missing xs:double element");
            }
            string t = text.Trim();
            switch (t)
            {
                case "NaN": return double.NaN;
                case "INF":
                case "+INF": return double.PositiveInfinity;
                case "-INF": return double.NegativeInfinity;
            }
            double value;
            if (!DoubleText.TryParse(t.StartsWith("+", StringComparison.Ordinal) ? t.Substring(1) : t, out value))
            {
                throw new FormatException("not an xs:double: \"" + (t.Length > 40 ? t.Substring(0, 40) + "..." : t) + "\"");
            }
            return value;
        }

        /// <summary>A float32 as the text of its exact float64 value: it reads back to the same float.</summary>
        public static string Float(float value)
        {
            return Double(value);
        }

        /// <summary>xs:float: the decimal rounded once to float64, then to float32 (shortest float texts are never near a tie).</summary>
        public static float ToFloat(string text)
        {
            return (float)ToDouble(text);
        }

        public static string[] Doubles(double[] values)
        {
            var texts = new string[values.Length];
            for (int i = 0; i < values.Length; i++)
            {
                texts[i] = Double(values[i]);
            }
            return texts;
        }

        /// <summary>An absent repeated element reads as null: the empty sequence.</summary>
        public static double[] ToDoubles(string[] texts)
        {
            if (texts == null)
            {
                return new double[0];
            }
            var values = new double[texts.Length];
            for (int i = 0; i < texts.Length; i++)
            {
                values[i] = ToDouble(texts[i]);
            }
            return values;
        }

        public static string[] Strings(string[] values)
        {
            return values ?? new string[0];
        }

        public static SoapRecord Record(Record r)
        {
            return new SoapRecord { Id = r.Id, Tags = r.Tags, Values = Doubles(r.Values) };
        }

        public static Record ToRecord(SoapRecord r)
        {
            if (r == null)
            {
                throw new FormatException("missing Record");
            }
            return new Record { Id = r.Id, Tags = Strings(r.Tags), Values = ToDoubles(r.Values) };
        }

        public static SoapBook[] Books(Book[] books)
        {
            return Array.ConvertAll(books, b => new SoapBook
            {
                Title = b.Title, Authors = b.Authors, Price = Double(b.Price), ListPrice = Double(b.ListPrice),
                Publisher = b.Publisher, Year = b.Year, Month = b.Month, Keywords = b.Keywords, Isbn = b.Isbn,
                StarRating = b.StarRating, Url = b.Url,
            });
        }

        public static Book[] ToBooks(SoapBook[] books)
        {
            return Array.ConvertAll(books ?? new SoapBook[0], b => new Book
            {
                Title = b.Title, Authors = Strings(b.Authors), Price = ToDouble(b.Price), ListPrice = ToDouble(b.ListPrice),
                Publisher = b.Publisher, Year = b.Year, Month = b.Month, Keywords = Strings(b.Keywords), Isbn = b.Isbn,
                StarRating = b.StarRating, Url = b.Url,
            });
        }

        public static SoapItem[] Items(Item[] items)
        {
            return Array.ConvertAll(items, i => new SoapItem
            {
                Id = i.Id, Title = i.Title, Description = i.Description, Category = i.Category, Owner = i.Owner,
                Created = i.Created, Updated = i.Updated, Quantity = i.Quantity, Price = Double(i.Price), Weight = Float(i.Weight),
            });
        }

        public static Item[] ToItems(SoapItem[] items)
        {
            return Array.ConvertAll(items ?? new SoapItem[0], i => new Item
            {
                Id = i.Id, Title = i.Title, Description = i.Description, Category = i.Category, Owner = i.Owner,
                Created = i.Created, Updated = i.Updated, Quantity = i.Quantity, Price = ToDouble(i.Price), Weight = ToFloat(i.Weight),
            });
        }

        public static string Describe(BenchErrorDetail detail)
        {
            return "BenchError{code=" + detail.Code.ToString(CultureInfo.InvariantCulture) + ", message=" + detail.Message + "}";
        }
    }
}
