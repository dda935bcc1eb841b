using RpcMatrix.Core.Contract;

namespace RpcMatrix.RawTcp
{
    /// <summary>The contract's structs on the raw TCP wire: their fields in contract order.</summary>
    public static class StructCodec
    {
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
