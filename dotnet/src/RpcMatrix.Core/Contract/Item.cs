namespace RpcMatrix.Core.Contract
{
    /// <summary>Gredler's ten-field item. Timestamps are milliseconds since the Unix epoch, UTC.</summary>
    public sealed class Item
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
