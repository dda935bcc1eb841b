namespace RpcMatrix.Core.Contract
{
    /// <summary>Gray's "large data" record: one search result.</summary>
    public sealed class Book
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
}
