namespace RpcMatrix.Core.Reference
{
    /// <summary>The contract's generator (CONTRACT.md#generated-data); all arithmetic modulo 2^64.</summary>
    public sealed class SplitMix64
    {
        private const string Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        private const double TwoToMinus53 = 1.0 / 9007199254740992.0;

        private ulong state;

        public SplitMix64(long seed)
        {
            state = unchecked((ulong)seed);
        }

        public SplitMix64(ulong seed)
        {
            state = seed;
        }

        public ulong Next()
        {
            unchecked
            {
                state += 0x9E3779B97F4A7C15UL;
                ulong z = state;
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                return z ^ (z >> 31);
            }
        }

        /// <summary>A value in [0, 1): 53 random bits scaled exactly.</summary>
        public double NextDouble()
        {
            return (Next() >> 11) * TwoToMinus53;
        }

        public long Below(long n)
        {
            return (long)((Next() >> 1) % (ulong)n);
        }

        public long Signed64()
        {
            return unchecked((long)Next());
        }

        public int Signed32()
        {
            return unchecked((int)(uint)(Next() >> 32));
        }

        public string Word(int length)
        {
            var chars = new char[length];
            for (int i = 0; i < length; i++)
            {
                chars[i] = Alphabet[(int)Below(62)];
            }
            return new string(chars);
        }
    }
}
