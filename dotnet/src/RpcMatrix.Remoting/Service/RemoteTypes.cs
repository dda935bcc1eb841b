using System;

namespace RpcMatrix.Remoting.Service
{
    // The contract's structs as the binary formatter carries them: [Serializable] copies of Core's types, field
    // for field (Core's types are not serializable, and other protocols map them their own way).

    [Serializable]
    public sealed class RemoteRecord
    {
        public long Id;
        public string[] Tags;
        public double[] Values;
    }

    [Serializable]
    public sealed class RemoteBook
    {
        public string Title;
        public string[] Authors;
        public double Price;
        public double ListPrice;
        public string Publisher;
        public int Year;
        public int Month;
        public string[] Keywords;
        public string Isbn;
        public int StarRating;
        public string Url;
    }

    [Serializable]
    public sealed class RemoteItem
    {
        public long Id;
        public string Title;
        public string Description;
        public string Category;
        public string Owner;
        public long Created;
        public long Updated;
        public int Quantity;
        public double Price;
        public float Weight;
    }
}
