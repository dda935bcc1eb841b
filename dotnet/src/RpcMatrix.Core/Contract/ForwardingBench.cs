namespace RpcMatrix.Core.Contract
{
    /// <summary>
    /// An IBench that passes every call on to the bench Next answers, for a wrapper that acts before each call
    /// (InjectedSpin's spin). Its IBench methods, one forward each, are generated from idl/contract.json at build time
    /// (RpcMatrix.Generator's CoreSource): a direct call, no proxy or reflection between the caller and the bench.
    /// </summary>
    public abstract partial class ForwardingBench
    {
        /// <summary>The bench this call goes to; called once per call, before it.</summary>
        protected abstract IBench Next();
    }
}
