using System;
using System.Collections.Generic;
using System.Globalization;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.Core.Harness
{
    /// <summary>One parsed command line of the runner, with typed access to its members.</summary>
    public sealed class Command
    {
        private readonly Dictionary<string, object> members;

        public Command(Dictionary<string, object> members)
        {
            this.members = members;
        }

        public string Name { get { return Text("cmd"); } }

        public bool Has(string key)
        {
            object value;
            return members.TryGetValue(key, out value) && value != null;
        }

        public string Text(string key)
        {
            object value;
            return members.TryGetValue(key, out value) ? value as string : null;
        }

        public string RequiredText(string key)
        {
            string text = Text(key);
            if (string.IsNullOrEmpty(text))
            {
                throw new ArgumentException(Name + " needs \"" + key + "\"");
            }
            return text;
        }

        /// <summary>A non-negative integer member; <paramref name="absent"/> when missing (null: required).</summary>
        public int Count(string key, int? absent = null)
        {
            object value;
            if (!members.TryGetValue(key, out value) || value == null)
            {
                if (absent.HasValue)
                {
                    return absent.Value;
                }
                throw new ArgumentException(Name + " needs \"" + key + "\"");
            }
            var number = value as JsonNumber;
            int count;
            if (number == null || !int.TryParse(number.Text, NumberStyles.None, CultureInfo.InvariantCulture, out count))
            {
                throw new ArgumentException("\"" + key + "\" must be a non-negative integer");
            }
            return count;
        }

        public double Number(string key, double absent)
        {
            object value;
            if (!members.TryGetValue(key, out value) || value == null)
            {
                return absent;
            }
            var number = value as JsonNumber;
            double result;
            if (number == null || !DoubleText.TryParse(number.Text, out result))
            {
                throw new ArgumentException("\"" + key + "\" must be a number");
            }
            return result;
        }

        /// <summary>The member as JSON text (for a message saying what was sent), "null" when missing.</summary>
        public string Shown(string key)
        {
            object value;
            return members.TryGetValue(key, out value) ? JsonWriter.Write(value) : "null";
        }

        public Command Member(string key)
        {
            object value;
            var inner = members.TryGetValue(key, out value) ? value as Dictionary<string, object> : null;
            return inner == null ? null : new Command(inner);
        }
    }
}
