package org.rpcmatrix.soap;

import java.util.Map;
import javax.xml.ws.soap.SOAPFaultException;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.message.Message;
import org.apache.wss4j.dom.WSConstants;
import org.rpcmatrix.core.BenchError;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.soap.generated.Bench;

/**
 * The WS-Security attacks of CONTRACT.md#vectors, each made with a proxy that is correct but for the one
 * defect. The answer is the SOAP Fault the server sent ("code: string"), or null when it answered normally.
 */
final class Attacks {
    private static final int HTTP_OK = 200;
    private final ProxyBuilder proxy;
    private final KeyMaterial keys;

    Attacks(ProxyBuilder proxy, KeyMaterial keys) {
        this.proxy = proxy.closeConnection();
        this.keys = keys;
    }

    String make(String attack, Operation op, Object[] args) throws Exception {
        return switch (attack) {
            case "missing-security-header" -> send(proxy.unsecured(), op, args);
            case "expired-timestamp" -> send(proxy.actions(Map.of(WSConstants.TS, new DefectiveActions.BackdatedTimestamp())),
                    op, args);
            case "wrong-password" -> send(proxy.password(keys.password + "-wrong"), op, args);
            case "tampered-body" -> send(proxy.actions(Map.of(WSConstants.SIGN, new DefectiveActions.TamperAfterSigning())),
                    op, args);
            case "unknown-certificate" -> send(proxy.signer("rogue-client"), op, args);
            case "replayed-message" -> replay(op, args);
            default -> throw new UnsupportedOperationException("unknown attack '" + attack + "'");
        };
    }

    private static String send(ProxyBuilder builder, Operation op, Object[] args) throws Exception {
        Bench bench = builder.build();
        try {
            SoapClient.CALLS.call(bench, op, args);
            return null;
        } catch (SOAPFaultException e) {
            // A fault made here (the answer failed this client's own checks) is not a refusal: the server
            // refused only if it said so, with HTTP 500.
            Object status = ClientProxy.getClient(bench).getResponseContext().get(Message.RESPONSE_CODE);
            if (Integer.valueOf(HTTP_OK).equals(status)) {
                return null;
            }
            return Faults.describe(e);
        } catch (BenchError e) {
            return null; // the server ran the operation: that is an answer, not a refusal
        } finally {
            ProxyBuilder.destroy(bench);
        }
    }

    /** A correct secured call whose request bytes are kept, then the same bytes posted again. */
    private String replay(Operation op, Object[] args) throws Exception {
        RequestCapture capture = new RequestCapture();
        String first = send(proxy.outInterceptor(capture), op, args);
        if (first != null) {
            throw new IllegalStateException("the original of the replayed message was refused: " + first);
        }
        return Faults.postRaw(proxy.address(), capture.bytes(), "urn:rpcmatrix:bench:" + op.contractName());
    }
}
