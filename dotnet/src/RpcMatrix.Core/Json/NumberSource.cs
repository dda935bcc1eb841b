using System;
using System.Collections.Generic;

namespace RpcMatrix.Core.Json
{
    /// <summary>
    /// Finds the source text of the number token the reader has just read, from the line and position the reader
    /// reports (IJsonLineInfo). Positions are taken as a hint: the token is the run of number characters touching
    /// it, which is unambiguous because JSON separates two numbers by at least one other character.
    /// </summary>
    internal sealed class NumberSource
    {
        private readonly string text;
        private readonly List<int> lineStarts = new List<int> { 0 };

        public NumberSource(string text)
        {
            this.text = text;
            for (int i = 0; i < text.Length; i++)
            {
                bool lineFeed = text[i] == '\n';
                bool loneReturn = text[i] == '\r' && (i + 1 >= text.Length || text[i + 1] != '\n');
                if (lineFeed || loneReturn)
                {
                    // The reader counts a line's positions from its line break.
                    lineStarts.Add(i);
                }
            }
        }

        public string TextEndingAt(int lineNumber, int linePosition)
        {
            int line = Math.Max(1, Math.Min(lineNumber, lineStarts.Count));
            int hint = Math.Min(lineStarts[line - 1] + linePosition, text.Length);
            int inside = hint - 1 >= 0 && IsNumberChar(text[hint - 1]) ? hint - 1
                : hint < text.Length && IsNumberChar(text[hint]) ? hint : -1;
            if (inside < 0)
            {
                throw new FormatException("JSON: cannot locate the number near offset " + hint);
            }
            int start = inside;
            while (start > 0 && IsNumberChar(text[start - 1]))
            {
                start--;
            }
            int end = inside + 1;
            while (end < text.Length && IsNumberChar(text[end]))
            {
                end++;
            }
            return text.Substring(start, end - start);
        }

        private static bool IsNumberChar(char c)
        {
            return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
        }
    }
}
