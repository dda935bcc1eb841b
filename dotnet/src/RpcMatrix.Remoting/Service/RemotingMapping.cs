using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>
    /// The contract's values as the binary formatter carries them: Core's structs to and from their [Serializable]
    /// copies (RemoteTypes.cs); every other contract type is native. ToWire and FromWire give the converter of a
    /// contract type name (Python's mapping.py to_wire and from_wire), bound to the operation table by BenchService
    /// (the server, MappedOperation) and RemotingOperation (the client).
    /// </summary>
    public static class RemotingMapping
    {
        /// <summary>The converter of a contract value of the type into what BenchService takes and answers.</summary>
        public static Func<object, object> ToWire(string type)
        {
            switch (type)
            {
                case "Record": return value => Out((Record)value);
                case "Book[]": return value => Out((Book[])value);
                case "Item[]": return value => Out((Item[])value);
                default: return Native(type);
            }
        }

        /// <summary>The converter of what BenchService takes and answers into a contract value of the type.</summary>
        public static Func<object, object> FromWire(string type)
        {
            switch (type)
            {
                case "Record": return value => In((RemoteRecord)value);
                case "Book[]": return value => In((RemoteBook[])value);
                case "Item[]": return value => In((RemoteItem[])value);
                default: return Native(type);
            }
        }

        /// <summary>The .NET type of a contract type on the channel: what BenchService's signatures must declare.</summary>
        public static Type WireType(string type)
        {
            switch (type)
            {
                case "void": return typeof(void);
                case "bool": return typeof(bool);
                case "int8": return typeof(sbyte);
                case "int16": return typeof(short);
                case "int32": return typeof(int);
                case "int64":
                case "timestamp": return typeof(long);
                case "float32": return typeof(float);
                case "float64": return typeof(double);
                case "string": return typeof(string);
                case "bytes": return typeof(byte[]);
                case "float64[]": return typeof(double[]);
                case "string[]": return typeof(string[]);
                case "Record": return typeof(RemoteRecord);
                case "Book[]": return typeof(RemoteBook[]);
                case "Item[]": return typeof(RemoteItem[]);
                default: throw new ArgumentException(".NET Remoting carries no " + type);
            }
        }

        private static Func<object, object> Native(string type)
        {
            WireType(type);
            return value => value;
        }

        public static RemoteRecord Out(Record r)
        {
            return new RemoteRecord { Id = r.Id, Tags = r.Tags, Values = r.Values };
        }

        public static Record In(RemoteRecord r)
        {
            return r == null ? null : new Record { Id = r.Id, Tags = r.Tags, Values = r.Values };
        }

        public static RemoteBook[] Out(Book[] books)
        {
            var copies = new RemoteBook[books.Length];
            for (int i = 0; i < books.Length; i++)
            {
                Book b = books[i];
                copies[i] = new RemoteBook
                {
                    Title = b.Title, Authors = b.Authors, Price = b.Price, ListPrice = b.ListPrice,
                    Publisher = b.Publisher, Year = b.Year, Month = b.Month, Keywords = b.Keywords,
                    Isbn = b.Isbn, StarRating = b.StarRating, Url = b.Url,
                };
            }
            return copies;
        }

        public static Book[] In(RemoteBook[] books)
        {
            if (books == null)
            {
                return null;
            }
            var copies = new Book[books.Length];
            for (int i = 0; i < books.Length; i++)
            {
                RemoteBook b = books[i];
                copies[i] = new Book
                {
                    Title = b.Title, Authors = b.Authors, Price = b.Price, ListPrice = b.ListPrice,
                    Publisher = b.Publisher, Year = b.Year, Month = b.Month, Keywords = b.Keywords,
                    Isbn = b.Isbn, StarRating = b.StarRating, Url = b.Url,
                };
            }
            return copies;
        }

        public static RemoteItem[] Out(Item[] items)
        {
            var copies = new RemoteItem[items.Length];
            for (int i = 0; i < items.Length; i++)
            {
                Item t = items[i];
                copies[i] = new RemoteItem
                {
                    Id = t.Id, Title = t.Title, Description = t.Description, Category = t.Category, Owner = t.Owner,
                    Created = t.Created, Updated = t.Updated, Quantity = t.Quantity, Price = t.Price, Weight = t.Weight,
                };
            }
            return copies;
        }

        public static Item[] In(RemoteItem[] items)
        {
            if (items == null)
            {
                return null;
            }
            var copies = new Item[items.Length];
            for (int i = 0; i < items.Length; i++)
            {
                RemoteItem t = items[i];
                copies[i] = new Item
                {
                    Id = t.Id, Title = t.Title, Description = t.Description, Category = t.Category, Owner = t.Owner,
                    Created = t.Created, Updated = t.Updated, Quantity = t.Quantity, Price = t.Price, Weight = t.Weight,
                };
            }
            return copies;
        }
    }
}
