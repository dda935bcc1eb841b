using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace RpcMatrix.Core.Json
{
    /// <summary>
    /// A small strict JSON (RFC 8259) reader. Values: null, bool, JsonNumber, string,
    /// List&lt;object&gt; and Dictionary&lt;string, object&gt;.
    /// </summary>
    public sealed class JsonParser
    {
        private const int MaxDepth = 64;
        private readonly string text;
        private int pos;

        private JsonParser(string text)
        {
            this.text = text;
        }

        public static object Parse(string text)
        {
            var parser = new JsonParser(text);
            parser.SkipWhitespace();
            object value = parser.ReadValue(0);
            parser.SkipWhitespace();
            if (parser.pos != text.Length)
            {
                throw parser.Error("trailing characters");
            }
            return value;
        }

        private object ReadValue(int depth)
        {
            if (depth > MaxDepth)
            {
                throw Error("nested too deeply");
            }
            if (pos >= text.Length)
            {
                throw Error("unexpected end");
            }
            char c = text[pos];
            switch (c)
            {
                case '{': return ReadObject(depth);
                case '[': return ReadArray(depth);
                case '"': return ReadString();
                case 't': ExpectWord("true"); return true;
                case 'f': ExpectWord("false"); return false;
                case 'n': ExpectWord("null"); return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9'))
                    {
                        return ReadNumber();
                    }
                    throw Error("unexpected character '" + c + "'");
            }
        }

        private Dictionary<string, object> ReadObject(int depth)
        {
            var result = new Dictionary<string, object>();
            pos++;
            SkipWhitespace();
            if (Peek() == '}')
            {
                pos++;
                return result;
            }
            while (true)
            {
                SkipWhitespace();
                if (Peek() != '"')
                {
                    throw Error("expected a member name");
                }
                string name = ReadString();
                SkipWhitespace();
                Expect(':');
                SkipWhitespace();
                result[name] = ReadValue(depth + 1);
                SkipWhitespace();
                char c = Next();
                if (c == '}')
                {
                    return result;
                }
                if (c != ',')
                {
                    throw Error("expected ',' or '}'");
                }
            }
        }

        private List<object> ReadArray(int depth)
        {
            var result = new List<object>();
            pos++;
            SkipWhitespace();
            if (Peek() == ']')
            {
                pos++;
                return result;
            }
            while (true)
            {
                SkipWhitespace();
                result.Add(ReadValue(depth + 1));
                SkipWhitespace();
                char c = Next();
                if (c == ']')
                {
                    return result;
                }
                if (c != ',')
                {
                    throw Error("expected ',' or ']'");
                }
            }
        }

        private string ReadString()
        {
            pos++;
            var sb = new StringBuilder();
            while (true)
            {
                char c = Next();
                if (c == '"')
                {
                    return sb.ToString();
                }
                if (c < ' ')
                {
                    throw Error("control character in string");
                }
                if (c != '\\')
                {
                    sb.Append(c);
                    continue;
                }
                char e = Next();
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        if (pos + 4 > text.Length)
                        {
                            throw Error("short \\u escape");
                        }
                        int code;
                        if (!int.TryParse(text.Substring(pos, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code))
                        {
                            throw Error("bad \\u escape");
                        }
                        sb.Append((char)code);
                        pos += 4;
                        break;
                    default:
                        throw Error("bad escape '\\" + e + "'");
                }
            }
        }

        private JsonNumber ReadNumber()
        {
            int start = pos;
            if (Peek() == '-')
            {
                pos++;
            }
            if (!SkipDigits())
            {
                throw Error("digits expected");
            }
            if (Peek() == '.')
            {
                pos++;
                if (!SkipDigits())
                {
                    throw Error("digits expected after '.'");
                }
            }
            if (Peek() == 'e' || Peek() == 'E')
            {
                pos++;
                if (Peek() == '+' || Peek() == '-')
                {
                    pos++;
                }
                if (!SkipDigits())
                {
                    throw Error("digits expected in exponent");
                }
            }
            return new JsonNumber(text.Substring(start, pos - start));
        }

        private bool SkipDigits()
        {
            int start = pos;
            while (pos < text.Length && text[pos] >= '0' && text[pos] <= '9')
            {
                pos++;
            }
            return pos > start;
        }

        private void ExpectWord(string word)
        {
            if (string.CompareOrdinal(text, pos, word, 0, word.Length) != 0)
            {
                throw Error("expected " + word);
            }
            pos += word.Length;
        }

        private void Expect(char c)
        {
            if (Next() != c)
            {
                throw Error("expected '" + c + "'");
            }
        }

        private char Peek()
        {
            return pos < text.Length ? text[pos] : '\0';
        }

        private char Next()
        {
            if (pos >= text.Length)
            {
                throw Error("unexpected end");
            }
            return text[pos++];
        }

        private void SkipWhitespace()
        {
            while (pos < text.Length && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
            {
                pos++;
            }
        }

        private FormatException Error(string what)
        {
            return new FormatException("JSON: " + what + " at offset " + pos);
        }
    }
}
