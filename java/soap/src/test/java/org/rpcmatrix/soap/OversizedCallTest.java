package org.rpcmatrix.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.rpcmatrix.core.adapter.BenchClient;

/** A call whose text is over the parser's limit is a fault, not an OutOfMemoryError; the server goes on. */
class OversizedCallTest {
    @Test
    void anOversizedTextIsAFaultAndTheServerGoesOn() throws Exception {
        SoapServer server = SoapFixtures.server("soap11", null);
        try {
            String address = "http://127.0.0.1:" + server.port() + SoapServer.PATH;
            HttpURLConnection http = (HttpURLConnection) new URL(address).openConnection();
            http.setRequestMethod("POST");
            http.setDoOutput(true);
            http.setRequestProperty("Content-Type", "text/xml; charset=utf-8");
            http.setRequestProperty("SOAPAction", "\"\"");
            http.setChunkedStreamingMode(64 * 1024);
            try (OutputStream out = http.getOutputStream()) {
                out.write(("<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                        + "<b:echoString xmlns:b=\"urn:rpcmatrix:bench\"><b:value>").getBytes(StandardCharsets.UTF_8));
                byte[] chunk = "x".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i <= SoapServer.MAX_TEXT_CHARS >> 20; i++) {
                    out.write(chunk);
                }
                out.write("</b:value></b:echoString></soap:Body></soap:Envelope>".getBytes(StandardCharsets.UTF_8));
            }
            assertEquals(500, http.getResponseCode());
            try (InputStream error = http.getErrorStream()) {
                String fault = new String(error.readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(fault.contains("Text size limit (" + SoapServer.MAX_TEXT_CHARS + ") exceeded"), fault);
            }
            try (BenchClient client = SoapClient.connect(SoapFixtures.client("soap11", server.port(), null))) {
                assertEquals("still here", client.echoString("still here"));
            }
        } finally {
            server.stop();
        }
    }
}
