using System.Collections.Generic;
using System.Linq;
using System.Net;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Reference;
using RpcMatrix.JsonRpc;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.Tests
{
    /// <summary>JSON-RPC 2.0: the dispatcher against the specification's cases, then client and server over loopback.</summary>
    [TestFixture]
    public class JsonRpcTests
    {
        private readonly JsonRpcDispatcher dispatcher =
            new JsonRpcDispatcher(new JsonRpcServer(new ReferenceBench(), false).Invoke);

        private Dictionary<string, object> One(string request)
        {
            return (Dictionary<string, object>)JsonParser.Parse(dispatcher.Handle(request));
        }

        private static int ErrorCode(Dictionary<string, object> response)
        {
            var error = (Dictionary<string, object>)response["error"];
            return int.Parse(((JsonNumber)error["code"]).Text);
        }

        /// <summary>A float32 answer is the float32's shortest decimal, not the widened double's (8 to 10 bytes more).</summary>
        [Test]
        public void Float32AnswersAreTheShortestFloat32Decimal()
        {
            var answer = One("{\"jsonrpc\":\"2.0\",\"method\":\"echoFloat32\",\"params\":[0.1973659],\"id\":1}");
            Assert.AreEqual("0.1973659", ((JsonNumber)answer["result"]).Text);
        }

        [Test]
        public void ResultEchoesNumericAndStringIds()
        {
            var numeric = One("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt32\",\"params\":[42],\"id\":7}");
            Assert.AreEqual("2.0", numeric["jsonrpc"]);
            Assert.AreEqual("42", ((JsonNumber)numeric["result"]).Text);
            Assert.AreEqual("7", ((JsonNumber)numeric["id"]).Text);
            var text = One("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":\"abc\"}");
            Assert.AreEqual("abc", text["id"]);
            Assert.IsTrue(text.ContainsKey("result"));
            Assert.IsNull(text["result"]);
        }

        [Test]
        public void ParseErrorHasNullId()
        {
            var response = One("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":[");
            Assert.AreEqual(-32700, ErrorCode(response));
            Assert.IsNull(response["id"]);
        }

        [TestCase("{\"jsonrpc\":\"1.0\",\"method\":\"ping\",\"id\":1}")]
        [TestCase("{\"method\":\"ping\",\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":1,\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":\"x\",\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":{}}")]
        [TestCase("[]")]
        [TestCase("1")]
        public void InvalidRequests(string request)
        {
            Assert.AreEqual(-32600, ErrorCode(One(request)));
        }

        [Test]
        public void MethodNotFound()
        {
            var response = One("{\"jsonrpc\":\"2.0\",\"method\":\"nope\",\"params\":[],\"id\":3}");
            Assert.AreEqual(-32601, ErrorCode(response));
            Assert.AreEqual("3", ((JsonNumber)response["id"]).Text);
        }

        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt16\",\"params\":[40000],\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt8\",\"params\":[1.5],\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt64\",\"params\":[\"5\"],\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt32\",\"params\":[1,2],\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"echoBytes\",\"params\":[\"not base64!\"],\"id\":1}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt32\",\"params\":{\"other\":1},\"id\":1}")]
        public void InvalidParams(string request)
        {
            Assert.AreEqual(-32602, ErrorCode(One(request)));
        }

        [Test]
        public void BenchErrorIsTheErrorObject()
        {
            var response = One("{\"jsonrpc\":\"2.0\",\"method\":\"fail\",\"params\":[404,\"gone\"],\"id\":1}");
            var error = (Dictionary<string, object>)response["error"];
            Assert.AreEqual("404", ((JsonNumber)error["code"]).Text);
            Assert.AreEqual("gone", error["message"]);
        }

        [Test]
        public void ByNameParamsFollowTheContractsNames()
        {
            var response = One("{\"jsonrpc\":\"2.0\",\"method\":\"randomDoubles\",\"params\":{\"seed\":7,\"count\":0},\"id\":1}");
            Assert.AreEqual(0, ((List<object>)response["result"]).Count);
        }

        [Test]
        public void Int64BeyondTwoToThe53IsExact()
        {
            var response = One("{\"jsonrpc\":\"2.0\",\"method\":\"echoInt64\",\"params\":[9007199254740993],\"id\":1}");
            Assert.AreEqual("9007199254740993", ((JsonNumber)response["result"]).Text);
        }

        [Test]
        public void NotificationIsNotAnswered()
        {
            Assert.IsNull(dispatcher.Handle("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"));
            // Even a failing notification answers nothing.
            Assert.IsNull(dispatcher.Handle("{\"jsonrpc\":\"2.0\",\"method\":\"nope\",\"params\":[]}"));
            Assert.IsNull(dispatcher.Handle("[{\"jsonrpc\":\"2.0\",\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}]"));
        }

        [Test]
        public void BatchAnswersEachCallAndSkipsNotifications()
        {
            var answers = (List<object>)JsonParser.Parse(dispatcher.Handle("["
                + "{\"jsonrpc\":\"2.0\",\"method\":\"echoString\",\"params\":[\"a\"],\"id\":1},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"},"
                + "1,"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"nope\",\"id\":\"x\"}]"));
            Assert.AreEqual(3, answers.Count);
            var first = (Dictionary<string, object>)answers[0];
            Assert.AreEqual("a", first["result"]);
            Assert.AreEqual(-32600, ErrorCode((Dictionary<string, object>)answers[1]));
            Assert.AreEqual(-32601, ErrorCode((Dictionary<string, object>)answers[2]));
            Assert.AreEqual("x", ((Dictionary<string, object>)answers[2])["id"]);
        }

        [Test]
        public void LoopbackVectorsAndNotificationsOverHttp()
        {
            var server = new JsonRpcServer(new ReferenceBench(), false);
            int port = server.Start(IPAddress.Loopback, 0);
            try
            {
                using (var client = new JsonRpcClient("127.0.0.1", port, false))
                {
                    IdlFiles idl = IdlFiles.Load(IdlPaths.Directory);
                    Protocol jsonrpc = idl.Registry.Get("jsonrpc");
                    VectorOutcomes.AssertExact(idl, jsonrpc, new VectorRunner(idl, new ReferenceBench()).Run(client, jsonrpc));

                    client.Notify("ping");
                    string unknown = client.Post("{\"jsonrpc\":\"2.0\",\"method\":\"nope\",\"params\":[],\"id\":1}");
                    Assert.AreEqual(-32601, ErrorCode((Dictionary<string, object>)JsonParser.Parse(unknown)));
                }
            }
            finally
            {
                server.Stop();
            }
        }
    }
}
