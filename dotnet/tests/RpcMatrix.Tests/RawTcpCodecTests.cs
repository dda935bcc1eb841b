using System;
using System.IO;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;
using RpcMatrix.RawTcp;

namespace RpcMatrix.Tests
{
    [TestFixture]
    public class RawTcpCodecTests
    {
        private static byte[] Frame(Action<FrameWriter> write)
        {
            var w = new FrameWriter();
            write(w);
            var stream = new MemoryStream();
            w.WriteFrameTo(stream);
            return stream.ToArray();
        }

        [Test]
        public void BigEndianLayout()
        {
            byte[] frame = Frame(w =>
            {
                w.U16(17);
                w.Int32(-2);
                w.String("é");
            });
            Assert.AreEqual(new byte[] { 0, 0, 0, 12, 0, 17, 0xFF, 0xFF, 0xFF, 0xFE, 0, 0, 0, 2, 0xC3, 0xA9 }, frame);
        }

        [Test]
        public void FloatsTravelAsTheirBits()
        {
            byte[] frame = Frame(w =>
            {
                w.Float32(-0.0f);
                w.Float64(double.Epsilon);
            });
            Assert.AreEqual(new byte[] { 0, 0, 0, 12, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, frame);
        }

        [Test]
        public void EveryValueRoundTrips()
        {
            var bench = new ReferenceBench();
            byte[] frame = Frame(w =>
            {
                w.Bool(true);
                w.Int8(sbyte.MinValue);
                w.Int16(short.MinValue);
                w.Int64(long.MinValue);
                w.Float32(float.NaN);
                w.Bytes(new byte[] { 0, 255 });
                // Built from bits: mcs drops the sign of a -0.0 literal inside an array initializer.
                w.Float64Array(new[] { 1.5, BitConverter.Int64BitsToDouble(long.MinValue) });
                w.String("𝄞\r\n\0");
                RawTcpMapping.Write(w, bench.GetRecord("k"));
                RawTcpMapping.Write(w, bench.SearchBooks("q", 3));
                RawTcpMapping.Write(w, bench.GetItems(4));
            });
            FrameReader r = FrameReader.ReadFrom(new MemoryStream(frame));
            Assert.IsTrue(r.Bool());
            Assert.AreEqual(sbyte.MinValue, r.Int8());
            Assert.AreEqual(short.MinValue, r.Int16());
            Assert.AreEqual(long.MinValue, r.Int64());
            Assert.IsTrue(float.IsNaN(r.Float32()));
            Assert.AreEqual(new byte[] { 0, 255 }, r.Bytes());
            double[] doubles = r.Float64Array();
            Assert.AreEqual(1.5, doubles[0]);
            Assert.AreEqual(unchecked((long)0x8000000000000000UL), BitConverter.DoubleToInt64Bits(doubles[1]));
            Assert.AreEqual("𝄞\r\n\0", r.String());
            Assert.IsNull(ValueComparer.CompareResult("getRecord", bench.GetRecord("k"), RawTcpMapping.ReadRecord(r)));
            Assert.IsNull(ValueComparer.CompareResult("searchBooks", bench.SearchBooks("q", 3), RawTcpMapping.ReadBooks(r)));
            Assert.IsNull(ValueComparer.CompareResult("getItems", bench.GetItems(4), RawTcpMapping.ReadItems(r)));
            Assert.IsTrue(r.AtEnd);
        }

        [Test]
        public void RejectsTruncatedAndOversizedFrames()
        {
            Assert.Throws<EndOfStreamException>(() => FrameReader.ReadFrom(new MemoryStream(new byte[] { 0, 0, 0, 5, 1 })));
            Assert.Throws<RawTcpProtocolException>(() => FrameReader.ReadFrom(new MemoryStream(new byte[] { 4, 0, 0, 1 })));
            Assert.IsNull(FrameReader.ReadFrom(new MemoryStream(new byte[0])));
            var r = new FrameReader(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF }, 4);
            Assert.Throws<RawTcpProtocolException>(() => r.String());
        }

        [Test]
        public void DispatcherAnswersStatusesOneAndTwo()
        {
            var dispatcher = new RawTcpDispatcher(new ReferenceBench());
            var response = new FrameWriter();
            var request = new FrameWriter();
            request.U16(17);
            request.Int32(42);
            request.String("boom");
            dispatcher.Dispatch(Reader(request), response);
            FrameReader answer = Reader(response);
            Assert.AreEqual(1, answer.U8());
            Assert.AreEqual(42, answer.Int32());
            Assert.AreEqual("boom", answer.String());

            request.Reset();
            request.U16(99);
            dispatcher.Dispatch(Reader(request), response);
            answer = Reader(response);
            Assert.AreEqual(2, answer.U8());
            StringAssert.Contains("unknown operation", answer.String());

            request.Reset();
            request.U16(4);
            request.Int32(7);
            request.U8(0);
            dispatcher.Dispatch(Reader(request), response);
            Assert.AreEqual(2, Reader(response).U8(), "trailing bytes are a bad argument");
        }

        [Test]
        public void ALargeFrameLeavesInOneWriteThroughABufferedStream()
        {
            var w = new FrameWriter();
            w.Float64Array(new double[50000]);
            var writes = new WriteCounter();
            var buffered = new BufferedStream(writes, 64 * 1024);
            w.WriteFrameTo(buffered);
            buffered.Flush();
            Assert.AreEqual(1, writes.Writes, "the prefix went out apart from the body");
            Assert.AreEqual(4 + 4 + 8 * 50000, writes.Length);

            w.Reset();
            w.U8(7);
            Assert.AreEqual(1, w.Length, "Reset leaves room for the prefix only");
        }

        /// <summary>A stream that counts the writes it is given, as a socket's stream would send them.</summary>
        private sealed class WriteCounter : MemoryStream
        {
            public int Writes { get; private set; }

            public override void Write(byte[] buffer, int offset, int count)
            {
                Writes++;
                base.Write(buffer, offset, count);
            }
        }

        private static FrameReader Reader(FrameWriter w)
        {
            var stream = new MemoryStream();
            w.WriteFrameTo(stream);
            stream.Position = 0;
            return FrameReader.ReadFrom(stream);
        }
    }
}
