using System;
using System.Collections.Generic;
using System.Globalization;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Numbers;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// The contract's values in the message contracts (generated from idl/contract.json by RpcMatrix.Generator's
    /// SoapSource): xs:double and xs:float as bench.xsd text where XmlSerializer is not exact (Mono's XmlConvert is not
    /// correctly rounded and loses the sign of -0.0), the structs that carry them, echoed strings as SoapText (CR
    /// kept), absent sequences as empty. ToWire and FromWire give the converter of a contract type name into or out of
    /// a message member of the given .NET type (Python's mapping.py to_wire and from_wire); SoapOperation binds them to
    /// the operation table once.
    /// </summary>
    public static class SoapMapping
    {
        /// <summary>The converter of a contract value of the type into a message member of type wire.</summary>
        public static Func<object, object> ToWire(string type, Type wire)
        {
            Check(type, wire);
            switch (type)
            {
                case "void": return value => null;
                case "float32": return value => Float((float)value);
                case "float64": return value => Double((double)value);
                case "float64[]": return value => Doubles((double[])value);
                case "string":
                    if (wire == typeof(SoapText))
                    {
                        return value => new SoapText((string)value);
                    }
                    return value => value;
                case "Record": return value => Record((Record)value);
                case "Book[]": return value => Books((Book[])value);
                case "Item[]": return value => Items((Item[])value);
                default: return value => value;
            }
        }

        /// <summary>The converter of a message member of type wire into a contract value of the type; FormatException when it does not fit.</summary>
        public static Func<object, object> FromWire(string type, Type wire)
        {
            Check(type, wire);
            switch (type)
            {
                case "void": return value => null;
                case "float32": return value => ToFloat((string)value);
                case "float64": return value => ToDouble((string)value);
                case "float64[]": return value => ToDoubles((string[])value);
                case "string":
                    if (wire == typeof(SoapText))
                    {
                        return value => SoapText.Of((SoapText)value);
                    }
                    return value => value ?? "";
                case "bytes": return value => value ?? new byte[0];
                case "string[]": return value => Strings((string[])value);
                case "Record": return value => ToRecord((SoapRecord)value);
                case "Book[]": return value => ToBooks((SoapBook[])value);
                case "Item[]": return value => ToItems((SoapItem[])value);
                default: return value => value;
            }
        }

        /// <summary>The message member types that carry each contract type (null: no member, void).</summary>
        private static readonly Dictionary<string, Type[]> WireTypes = new Dictionary<string, Type[]>
        {
            { "void", new Type[] { null } },
            { "bool", new[] { typeof(bool) } },
            { "int8", new[] { typeof(sbyte) } },
            { "int16", new[] { typeof(short) } },
            { "int32", new[] { typeof(int) } },
            { "int64", new[] { typeof(long) } },
            { "float32", new[] { typeof(string) } },
            { "float64", new[] { typeof(string) } },
            { "string", new[] { typeof(string), typeof(SoapText) } },
            { "bytes", new[] { typeof(byte[]) } },
            { "float64[]", new[] { typeof(string[]) } },
            { "string[]", new[] { typeof(string[]) } },
            { "Record", new[] { typeof(SoapRecord) } },
            { "Book[]", new[] { typeof(SoapBook[]) } },
            { "Item[]", new[] { typeof(SoapItem[]) } },
        };

        /// <summary>A message member whose .NET type cannot carry the contract type is refused when the table is bound.</summary>
        private static void Check(string type, Type wire)
        {
            Type[] allowed;
            if (!WireTypes.TryGetValue(type, out allowed))
            {
                throw new ArgumentException("SOAP carries no " + type);
            }
            if (Array.IndexOf(allowed, wire) < 0)
            {
                throw new ArgumentException("a " + type + " does not travel as " + (wire == null ? "no member" : wire.Name));
            }
        }

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
