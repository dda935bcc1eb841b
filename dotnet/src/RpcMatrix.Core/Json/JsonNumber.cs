namespace RpcMatrix.Core.Json
{
    /// <summary>A JSON number kept as its text, so that int64 and float64 readers lose nothing.</summary>
    public sealed class JsonNumber
    {
        public JsonNumber(string text)
        {
            Text = text;
        }

        public string Text { get; private set; }

        public override string ToString()
        {
            return Text;
        }
    }
}
