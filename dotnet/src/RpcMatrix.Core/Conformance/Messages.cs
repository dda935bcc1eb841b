using System;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>One-line messages for exceptions, short enough for a JSON answer.</summary>
    public static class Messages
    {
        private const int MaxLength = 500;

        public static string Of(Exception e)
        {
            string text = e.GetType().Name + ": " + e.Message;
            if (e.InnerException != null && e.InnerException.Message != e.Message)
            {
                text += " (" + e.InnerException.Message + ")";
            }
            text = text.Replace('\n', ' ').Replace('\r', ' ');
            return text.Length <= MaxLength ? text : text.Substring(0, MaxLength) + "...";
        }
    }
}
