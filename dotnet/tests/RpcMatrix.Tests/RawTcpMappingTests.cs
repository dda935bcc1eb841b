using System.IO;
using NUnit.Framework;
using RpcMatrix.Core.Contract;
using RpcMatrix.RawTcp;

namespace RpcMatrix.Tests
{
    /// <summary>RawTcpMapping and the table bound to it (idl/rawtcp.md).</summary>
    [TestFixture]
    public class RawTcpMappingTests
    {
        [Test]
        public void EveryVectorValueRoundTripsThroughAFrame()
        {
            MappingRoundTrip.Check("rawtcp", (type, value) =>
            {
                var w = new FrameWriter();
                RawTcpMapping.Writer(type)(w, value);
                var frame = new MemoryStream();
                w.WriteFrameTo(frame);
                frame.Position = 0;
                FrameReader r = FrameReader.ReadFrom(frame);
                object back = RawTcpMapping.Reader(type)(r);
                r.ExpectEnd();
                return back;
            });
        }

        [Test]
        public void RequestsAreTheOperationIdAndTheArgumentsInOrder()
        {
            var w = new FrameWriter();
            RawTcpOperation.Table[Operations.Fail.Id].WriteRequest(w, new object[] { 7, "é" });
            var frame = new MemoryStream();
            w.WriteFrameTo(frame);
            Assert.AreEqual(new byte[] { 0, 0, 0, 12, 0, 17, 0, 0, 0, 7, 0, 0, 0, 2, 0xC3, 0xA9 }, frame.ToArray());
            Assert.IsNull(RawTcpOperation.ById(Operations.RandomDoublesStream.Id), "rawtcp has no streams");
            Assert.IsNull(RawTcpOperation.ById(Operations.All.Length));
        }
    }
}
