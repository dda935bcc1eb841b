using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;
using RpcMatrix.Remoting;
using RpcMatrix.Remoting.Service;

namespace RpcMatrix.Tests
{
    /// <summary>RemotingMapping and the operation table bound to BenchService's methods (RemotingOperation).</summary>
    [TestFixture]
    public class RemotingMappingTests
    {
        [Test]
        public void EveryVectorValueRoundTripsThroughTheSerializableCopies()
        {
            MappingRoundTrip.Check("remoting-tcp", (type, value) => RemotingMapping.FromWire(type)(RemotingMapping.ToWire(type)(value)));
        }

        /// <summary>The compiled calls on a local BenchService (no channel): each operation reaches its method with its arguments.</summary>
        [Test]
        public void EveryVectorCallsItsBenchServiceMethod()
        {
            var service = new BenchService(new ReferenceBench());
            MappingRoundTrip.CheckCalls("remoting-tcp", (op, args) =>
            {
                try
                {
                    return RemotingOperation.Table[op.Id].Call(service, args);
                }
                catch (RemoteBenchError e)
                {
                    throw new BenchError(e.Code, e.Message);
                }
            });
        }
    }
}
