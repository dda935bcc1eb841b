using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.Xml;
using RpcMatrix.Core.Contract;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// From a request Message to the Bench and back, for SoapServer: the operation is found by
    /// SOAP action (or, when a client sends none, by the body's wrapper element), the message contract read and written
    /// by WCF's TypedMessageConverter and answered through the operation table (SoapOperation, SoapMapping); a
    /// BenchError becomes bench.wsdl's declared fault, any other failure a SOAP Fault.
    /// </summary>
    public sealed class SoapDispatcher
    {
        private readonly IBench bench;
        private readonly MessageVersion version;
        private readonly Dictionary<string, Operation> byAction = new Dictionary<string, Operation>();
        private readonly Dictionary<string, Operation> byElement = new Dictionary<string, Operation>();

        public SoapDispatcher(IBench bench, MessageVersion version)
        {
            this.bench = bench;
            this.version = version;
            var format = new XmlSerializerFormatAttribute();
            foreach (SoapOperation soap in SoapOperation.Table)
            {
                if (soap == null)
                {
                    continue;
                }
                var op = new Operation
                {
                    Soap = soap,
                    Request = TypedMessageConverter.Create(soap.RequestType, soap.Action, BenchNamespace.Uri, format),
                    Reply = TypedMessageConverter.Create(soap.ResponseType, soap.ReplyAction, BenchNamespace.Uri, format),
                };
                byAction.Add(soap.Action, op);
                byElement.Add(soap.Operation.Name, op);
            }
        }

        /// <summary>The reply to one request: the operation's answer, or a SOAP Fault.</summary>
        public Message Dispatch(Message request)
        {
            Operation op;
            try
            {
                op = Find(ref request);
            }
            catch (Exception e)
            {
                return SenderFault("cannot read the request: " + e.Message);
            }
            if (op == null)
            {
                return SenderFault("no operation for SOAP action '" + request.Headers.Action + "'");
            }
            object argument;
            try
            {
                argument = op.Request.FromMessage(request);
            }
            catch (Exception e)
            {
                return SenderFault("cannot read the " + op.Soap.Method.Name + " request: " + Innermost(e).Message);
            }
            object answer;
            try
            {
                answer = op.Soap.Answer(bench, argument);
            }
            catch (BenchError e) when (op.Soap.DeclaresBenchError)
            {
                return FaultOf(SoapFaults.ToFault(e), op);
            }
            catch (Exception e)
            {
                return FaultOf(Innermost(e), op);
            }
            return op.Reply.ToMessage(answer, version);
        }

        /// <summary>The SOAP action of the operation whose wrapper element opens the body; null when none does.</summary>
        public string ActionOfBody(Message message)
        {
            using (XmlDictionaryReader body = message.GetReaderAtBodyContents())
            {
                body.MoveToContent();
                Operation op;
                return body.NamespaceURI == BenchNamespace.Uri && byElement.TryGetValue(body.LocalName, out op) ? op.Soap.Action : null;
            }
        }

        private Operation Find(ref Message request)
        {
            Operation op;
            string action = request.Headers.Action;
            if (action != null && byAction.TryGetValue(action.Trim('"'), out op))
            {
                return op;
            }
            // No (or an unknown) SOAPAction: look at the body's first element on a copy, then read the copy.
            MessageBuffer buffer = request.CreateBufferedCopy(int.MaxValue);
            request = buffer.CreateMessage();
            using (Message peek = buffer.CreateMessage())
            using (XmlDictionaryReader body = peek.GetReaderAtBodyContents())
            {
                body.MoveToContent();
                return body.NamespaceURI == BenchNamespace.Uri && byElement.TryGetValue(body.LocalName, out op) ? op : null;
            }
        }

        private Message FaultOf(Exception e, Operation op)
        {
            var declared = e as FaultException<BenchErrorDetail>;
            if (declared != null)
            {
                MessageFault fault = MessageFault.CreateFault(Code(false), declared.Reason, declared.Detail,
                    new DataContractSerializer(typeof(BenchErrorDetail)));
                return Message.CreateMessage(version, fault, op.Soap.ReplyAction);
            }
            var other = e as FaultException;
            if (other != null)
            {
                return Message.CreateMessage(version, other.CreateMessageFault(), op.Soap.ReplyAction);
            }
            if (e is FormatException || e is OverflowException || e is ArgumentException)
            {
                return SenderFault(e.Message);
            }
            return Message.CreateMessage(version, Code(false), e.GetType().Name + ": " + e.Message, (string)null);
        }

        /// <summary>A SOAP 1.1 Client / SOAP 1.2 Sender fault: the request was at fault.</summary>
        public Message SenderFault(string reason)
        {
            return Message.CreateMessage(version, Code(true), reason, (string)null);
        }

        /// <summary>SOAP 1.1's Client/Server or SOAP 1.2's Sender/Receiver: Mono writes 1.2's names unqualified into 1.1 faults.</summary>
        private FaultCode Code(bool sender)
        {
            if (version.Envelope == EnvelopeVersion.Soap11)
            {
                return new FaultCode(sender ? "Client" : "Server", "http://schemas.xmlsoap.org/soap/envelope/");
            }
            return sender ? FaultCode.CreateSenderFaultCode(null) : FaultCode.CreateReceiverFaultCode(null);
        }

        private static Exception Innermost(Exception e)
        {
            while (e.InnerException != null && (e is TargetInvocationException || e is InvalidOperationException))
            {
                e = e.InnerException;
            }
            return e;
        }

        private sealed class Operation
        {
            public SoapOperation Soap;
            public TypedMessageConverter Request;
            public TypedMessageConverter Reply;
        }
    }
}
