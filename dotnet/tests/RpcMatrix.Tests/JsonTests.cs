using System;
using System.Collections.Generic;
using NUnit.Framework;
using RpcMatrix.Core.Json;

namespace RpcMatrix.Tests
{
    /// <summary>The JSON layer must hand over every number's exact source text, on any line of a document.</summary>
    [TestFixture]
    public class JsonTests
    {
        [Test]
        public void NumbersKeepTheirSourceTextOnEveryLine()
        {
            string text = "{\"a\": [192.7549988689711, -0.0, 5e-324,\n  6.984971462299466e+112 , 12,\r\n-9223372036854775808],\n\"b\": {\"c\": 1E3}}";
            var root = (Dictionary<string, object>)JsonParser.Parse(text);
            var a = (List<object>)root["a"];
            Assert.AreEqual(new[] { "192.7549988689711", "-0.0", "5e-324", "6.984971462299466e+112", "12", "-9223372036854775808" },
                a.ConvertAll(x => ((JsonNumber)x).Text).ToArray());
            Assert.AreEqual("1E3", ((JsonNumber)((Dictionary<string, object>)root["b"])["c"]).Text);
        }

        [Test]
        public void WritesCompactAsciiAndReadsItBack()
        {
            var value = new Dictionary<string, object> { { "s", "é\n\"" }, { "n", new JsonNumber("0.1") }, { "l", new long[] { 1, -2 } }, { "ok", true } };
            string text = JsonWriter.Write(value);
            Assert.AreEqual("{\"s\":\"\\u00e9\\n\\\"\",\"n\":0.1,\"l\":[1,-2],\"ok\":true}", text);
            Assert.AreEqual("é\n\"", ((Dictionary<string, object>)JsonParser.Parse(text))["s"]);
        }

        [TestCase("")]
        [TestCase("{\"a\": 1} x")]
        [TestCase("[1, 2")]
        public void RejectsWhatIsNotOneJsonValue(string text)
        {
            Assert.Throws<FormatException>(() => JsonParser.Parse(text));
        }
    }
}
