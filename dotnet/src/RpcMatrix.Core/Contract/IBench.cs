using System.Collections.Generic;

namespace RpcMatrix.Core.Contract
{
    /// <summary>The Bench service: one method per operation of idl/contract.json.</summary>
    public interface IBench
    {
        void Ping();
        bool EchoBool(bool value);
        sbyte EchoInt8(sbyte value);
        short EchoInt16(short value);
        int EchoInt32(int value);
        long EchoInt64(long value);
        float EchoFloat32(float value);
        double EchoFloat64(double value);
        string EchoString(string value);
        byte[] EchoBytes(byte[] value);
        bool IsPrime(int n);
        double Average(double[] values);
        double[] RandomDoubles(int count, long seed);
        double[] LogTransform(double[] values);
        Record GetRecord(string key);
        Book[] SearchBooks(string query, int count);
        Item[] GetItems(int count);
        void Fail(int code, string message);

        /// <summary>gRPC only (contract.json marks it "only"); other protocols throw NotSupportedException.</summary>
        IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk);
    }
}
