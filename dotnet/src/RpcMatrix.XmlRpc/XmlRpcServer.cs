using System;
using System.Xml;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Http;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc
{
    /// <summary>
    /// The Bench served over XML-RPC at POST /RPC2 (the HttpHost: keep-alive, requests served concurrently; with gzip,
    /// xmlrpc-gzip, answers compressed for clients that accept gzip, gzip requests always read): method calls by
    /// contract name through the operation table and XmlRpcMapping. A BenchError is answered as a fault with its code,
    /// a value that does not fit as an invalid-params fault, what is not XML-RPC with the interoperability fault codes.
    /// </summary>
    public sealed class XmlRpcServer : HttpRpcServer
    {
        public const string Path = "/RPC2";
        public const string ContentType = "text/xml; charset=utf-8";

        /// <param name="gzip">xmlrpc-gzip: answers gzip-compressed for clients that accept it.</param>
        public XmlRpcServer(IBench bench, bool gzip) : base(bench, XmlRpcMapping.Table, "XML-RPC", Path, ContentType, gzip)
        {
        }

        /// <summary>Answers one method call: its value, or XmlRpcFault for a fault response.</summary>
        public object Invoke(string method, object[] parameters)
        {
            try
            {
                return Serve(method, parameters);
            }
            catch (BenchError e)
            {
                throw new XmlRpcFault(e.Code, e.Message);
            }
            catch (XmlRpcFormatException e)
            {
                throw new XmlRpcFault(XmlRpcFault.InvalidParams, method + ": " + e.Message);
            }
        }

        protected override byte[] Answer(byte[] body)
        {
            try
            {
                XmlRpcMethodCall call = XmlRpcParser.ParseMethodCall(body);
                return XmlRpcWriter.Response(Invoke(call.MethodName, call.Parameters));
            }
            catch (XmlRpcFault fault)
            {
                return XmlRpcWriter.Fault(fault.Code, fault.Message);
            }
            catch (XmlException e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.ParseError, "not well-formed XML: " + e.Message);
            }
            catch (XmlRpcFormatException e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.InvalidRequest, "invalid XML-RPC: " + e.Message);
            }
            catch (Exception e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.InternalError, e.GetType().Name + ": " + e.Message);
            }
        }

        protected override Exception NoSuchMethod(string method)
        {
            return new XmlRpcFault(XmlRpcFault.MethodNotFound, "no method " + method);
        }

        /// <summary>Answered as the invalid-params fault "method: takes N parameters, got M" (Invoke).</summary>
        protected override Exception WrongParameterCount(string method, int expected, int given)
        {
            return new XmlRpcFormatException("takes " + expected + " parameters, got " + given);
        }
    }
}
