using System.Text;

namespace RpcMatrix.Core.Reference
{
    /// <summary>FNV-1a, 64 bits: seeds the generator from a string key.</summary>
    public static class Fnv1a64
    {
        public static ulong Hash(byte[] bytes)
        {
            ulong h = 0xCBF29CE484222325UL;
            unchecked
            {
                foreach (byte b in bytes)
                {
                    h = (h ^ b) * 0x100000001B3UL;
                }
            }
            return h;
        }

        public static ulong HashUtf8(string text)
        {
            return Hash(Encoding.UTF8.GetBytes(text));
        }
    }
}
