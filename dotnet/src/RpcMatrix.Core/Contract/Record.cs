namespace RpcMatrix.Core.Contract
{
    /// <summary>Gray's "data" record.</summary>
    public sealed class Record
    {
        public long Id;
        public string[] Tags;
        public double[] Values;
    }
}
