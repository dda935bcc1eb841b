using System;
using System.Collections.Generic;
using System.Globalization;

namespace RpcMatrix.Core.Harness
{
    /// <summary>"--name value" options after the subcommand, as the runner passes them.</summary>
    public sealed class CommandLine
    {
        private readonly Dictionary<string, string> options = new Dictionary<string, string>();

        public CommandLine(IList<string> args, int start, params string[] known)
        {
            for (int i = start; i < args.Count; i += 2)
            {
                string name = args[i];
                if (!name.StartsWith("--", StringComparison.Ordinal) || Array.IndexOf(known, name.Substring(2)) < 0)
                {
                    throw new ArgumentException("unknown option " + name + " (known: --" + string.Join(", --", known) + ")");
                }
                if (i + 1 >= args.Count)
                {
                    throw new ArgumentException("option " + name + " needs a value");
                }
                options[name.Substring(2)] = args[i + 1];
            }
        }

        public string Required(string name)
        {
            string value;
            if (!options.TryGetValue(name, out value))
            {
                throw new ArgumentException("missing option --" + name);
            }
            return value;
        }

        public string Optional(string name)
        {
            string value;
            return options.TryGetValue(name, out value) ? value : null;
        }

        public int Port()
        {
            int port;
            string text = Required("port");
            if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535)
            {
                throw new ArgumentException("bad --port " + text);
            }
            return port;
        }
    }
}
