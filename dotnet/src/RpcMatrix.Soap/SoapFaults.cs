using System;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using RpcMatrix.Core.Contract;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>BenchError as bench.wsdl's declared SOAP Fault (server) and back (client).</summary>
    public static class SoapFaults
    {
        /// <summary>BenchError as bench.wsdl's declared fault: faultstring the message, detail tns:BenchError.</summary>
        public static FaultException<BenchErrorDetail> ToFault(BenchError e)
        {
            var detail = new BenchErrorDetail { Code = e.Code, Message = e.Message };
            return new FaultException<BenchErrorDetail>(detail, new FaultReason(e.Message), FaultCode.CreateReceiverFaultCode(null));
        }

        /// <summary>BenchError when the fault carries tns:BenchError {code, message}; otherwise an exception naming the fault.</summary>
        public static Exception ToBenchError(FaultException fault)
        {
            var typed = fault as FaultException<BenchErrorDetail>;
            if (typed != null && typed.Detail != null)
            {
                return new BenchError(typed.Detail.Code, typed.Detail.Message);
            }
            MessageFault message = fault.CreateMessageFault();
            BenchErrorDetail detail = message.HasDetail ? ReadDetail(message) : null;
            if (detail != null)
            {
                return new BenchError(detail.Code, detail.Message);
            }
            return new ProtocolException("SOAP Fault " + message.Code.Name + ": " + fault.Message, fault);
        }

        /// <summary>Reads tns:BenchError by hand: peers differ in prefixes and xsi attributes a serializer may mind.</summary>
        public static BenchErrorDetail ReadDetail(MessageFault fault)
        {
            using (XmlDictionaryReader reader = fault.GetReaderAtDetailContents())
            {
                reader.MoveToContent();
                if (reader.LocalName != "BenchError" || reader.NamespaceURI != BenchNamespace.Uri)
                {
                    return null;
                }
                var detail = new BenchErrorDetail();
                bool haveCode = false, haveMessage = false;
                if (reader.IsEmptyElement)
                {
                    return null;
                }
                reader.ReadStartElement();
                while (reader.MoveToContent() == XmlNodeType.Element)
                {
                    if (reader.LocalName == "code")
                    {
                        detail.Code = XmlConvert.ToInt32(reader.ReadElementContentAsString().Trim());
                        haveCode = true;
                    }
                    else if (reader.LocalName == "message")
                    {
                        detail.Message = reader.ReadElementContentAsString();
                        haveMessage = true;
                    }
                    else
                    {
                        reader.Skip();
                    }
                }
                return haveCode && haveMessage ? detail : null;
            }
        }
    }
}
