using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.RawTcp
{
    /// <summary>
    /// The contract's values on the raw TCP wire (idl/rawtcp.md): Writer and Reader give the encoder and decoder of a
    /// contract type name (Python's rawtcp/codec.py encoder and decoder), bound to the operation table once by
    /// RawTcpDispatcher and RawTcpClient; the structs are their fields in contract order. void is nothing.
    /// </summary>
    public static class RawTcpMapping
    {
        /// <summary>Writes a contract value of the type into a frame.</summary>
        public static Action<FrameWriter, object> Writer(string type)
        {
            switch (type)
            {
                case "void": return (w, value) => { };
                case "bool": return (w, value) => w.Bool((bool)value);
                case "int8": return (w, value) => w.Int8((sbyte)value);
                case "int16": return (w, value) => w.Int16((short)value);
                case "int32": return (w, value) => w.Int32((int)value);
                case "int64":
                case "timestamp": return (w, value) => w.Int64((long)value);
                case "float32": return (w, value) => w.Float32((float)value);
                case "float64": return (w, value) => w.Float64((double)value);
                case "string": return (w, value) => w.String((string)value);
                case "bytes": return (w, value) => w.Bytes((byte[])value);
                case "float64[]": return (w, value) => w.Float64Array((double[])value);
                case "string[]": return (w, value) => w.StringArray((string[])value);
                case "Record": return (w, value) => Write(w, (Record)value);
                case "Book[]": return (w, value) => Write(w, (Book[])value);
                case "Item[]": return (w, value) => Write(w, (Item[])value);
                default: throw new ArgumentException("rawtcp carries no " + type);
            }
        }

        /// <summary>Reads a contract value of the type from a frame (null for void); RawTcpProtocolException when it does not fit.</summary>
        public static Func<FrameReader, object> Reader(string type)
        {
            switch (type)
            {
                case "void": return r => null;
                case "bool": return r => r.Bool();
                case "int8": return r => r.Int8();
                case "int16": return r => r.Int16();
                case "int32": return r => r.Int32();
                case "int64":
                case "timestamp": return r => r.Int64();
                case "float32": return r => r.Float32();
                case "float64": return r => r.Float64();
                case "string": return r => r.String();
                case "bytes": return r => r.Bytes();
                case "float64[]": return r => r.Float64Array();
                case "string[]": return r => r.StringArray();
                case "Record": return r => ReadRecord(r);
                case "Book[]": return r => ReadBooks(r);
                case "Item[]": return r => ReadItems(r);
                default: throw new ArgumentException("rawtcp carries no " + type);
            }
        }

        public static void Write(FrameWriter w, Record r)
        {
            w.Int64(r.Id);
            w.StringArray(r.Tags);
            w.Float64Array(r.Values);
        }

        public static Record ReadRecord(FrameReader r)
        {
            return new Record { Id = r.Int64(), Tags = r.StringArray(), Values = r.Float64Array() };
        }

        public static void Write(FrameWriter w, Book[] books)
        {
            w.Count(books.Length);
            foreach (Book b in books)
            {
                w.String(b.Title);
                w.StringArray(b.Authors);
                w.Float64(b.Price);
                w.Float64(b.ListPrice);
                w.String(b.Publisher);
                w.Int32(b.Year);
                w.Int32(b.Month);
                w.StringArray(b.Keywords);
                w.String(b.Isbn);
                w.Int32(b.StarRating);
                w.String(b.Url);
            }
        }

        public static Book[] ReadBooks(FrameReader r)
        {
            var books = new Book[r.Count(1)];
            for (int i = 0; i < books.Length; i++)
            {
                books[i] = new Book
                {
                    Title = r.String(),
                    Authors = r.StringArray(),
                    Price = r.Float64(),
                    ListPrice = r.Float64(),
                    Publisher = r.String(),
                    Year = r.Int32(),
                    Month = r.Int32(),
                    Keywords = r.StringArray(),
                    Isbn = r.String(),
                    StarRating = r.Int32(),
                    Url = r.String(),
                };
            }
            return books;
        }

        public static void Write(FrameWriter w, Item[] items)
        {
            w.Count(items.Length);
            foreach (Item item in items)
            {
                w.Int64(item.Id);
                w.String(item.Title);
                w.String(item.Description);
                w.String(item.Category);
                w.String(item.Owner);
                w.Int64(item.Created);
                w.Int64(item.Updated);
                w.Int32(item.Quantity);
                w.Float64(item.Price);
                w.Float32(item.Weight);
            }
        }

        public static Item[] ReadItems(FrameReader r)
        {
            var items = new Item[r.Count(1)];
            for (int i = 0; i < items.Length; i++)
            {
                items[i] = new Item
                {
                    Id = r.Int64(),
                    Title = r.String(),
                    Description = r.String(),
                    Category = r.String(),
                    Owner = r.String(),
                    Created = r.Int64(),
                    Updated = r.Int64(),
                    Quantity = r.Int32(),
                    Price = r.Float64(),
                    Weight = r.Float32(),
                };
            }
            return items;
        }
    }
}
