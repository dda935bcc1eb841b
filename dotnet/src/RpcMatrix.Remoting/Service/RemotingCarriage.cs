using RpcMatrix.Core.Contract;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>Core's structs to and from their [Serializable] copies; every other contract type is native.</summary>
    public static class RemotingCarriage
    {
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
