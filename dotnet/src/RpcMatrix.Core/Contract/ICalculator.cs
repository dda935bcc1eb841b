namespace RpcMatrix.Core.Contract
{
    /// <summary>One remote Calculator of CONTRACT.md#objects: an int64 total, wrapping on overflow.</summary>
    public interface ICalculator
    {
        long Add(long n);
        void Clear();
        long Total();

        /// <summary>Unexports the object: no later call on it succeeds.</summary>
        void Release();
    }
}
