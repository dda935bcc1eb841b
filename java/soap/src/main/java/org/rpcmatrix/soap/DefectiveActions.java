package org.rpcmatrix.soap;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.apache.wss4j.common.SecurityActionToken;
import org.apache.wss4j.common.WSS4JConstants;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.action.Action;
import org.apache.wss4j.dom.action.SignatureAction;
import org.apache.wss4j.dom.action.TimestampAction;
import org.apache.wss4j.dom.handler.RequestData;
import org.apache.wss4j.dom.handler.WSHandler;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** WSS4J actions that do their job and then spoil it, for the attacks (replacing the real ones by id). */
final class DefectiveActions {
    private DefectiveActions() {
    }

    /** A Timestamp created 10 minutes ago that expired 5 minutes ago (signed afterwards, if signing). */
    static final class BackdatedTimestamp implements Action {
        @Override
        public void execute(WSHandler handler, SecurityActionToken token, RequestData data) throws WSSecurityException {
            new TimestampAction().execute(handler, token, data);
            Element timestamp = child(data.getSecHeader().getSecurityHeaderElement(), WSS4JConstants.WSU_NS, "Timestamp");
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            child(timestamp, WSS4JConstants.WSU_NS, "Created").setTextContent(now.minus(Duration.ofMinutes(10)).toString());
            child(timestamp, WSS4JConstants.WSU_NS, "Expires").setTextContent(now.minus(Duration.ofMinutes(5)).toString());
        }
    }

    /**
     * Signs, then changes the Body's text "signed" to "tampered" (before any encryption, which comes after
     * the signature in the action list).
     */
    static final class TamperAfterSigning implements Action {
        @Override
        public void execute(WSHandler handler, SecurityActionToken token, RequestData data) throws WSSecurityException {
            new SignatureAction().execute(handler, token, data);
            Element envelope = data.getSecHeader().getSecurityHeaderElement().getOwnerDocument().getDocumentElement();
            if (!replaceText(child(envelope, envelope.getNamespaceURI(), "Body"), "signed", "tampered")) {
                throw new IllegalStateException("no text 'signed' in the body to tamper with");
            }
        }
    }

    private static Element child(Element parent, String namespace, String localName) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && localName.equals(element.getLocalName())
                    && namespace.equals(element.getNamespaceURI())) {
                return element;
            }
        }
        throw new IllegalStateException("no " + localName + " in " + parent.getLocalName());
    }

    private static boolean replaceText(Node node, String from, String to) {
        if (node.getNodeType() == Node.TEXT_NODE && from.equals(node.getNodeValue())) {
            node.setNodeValue(to);
            return true;
        }
        for (Node child = node.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (replaceText(child, from, to)) {
                return true;
            }
        }
        return false;
    }
}
