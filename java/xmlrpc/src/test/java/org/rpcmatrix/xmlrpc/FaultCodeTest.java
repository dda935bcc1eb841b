package org.rpcmatrix.xmlrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rpcmatrix.core.adapter.ServerOptions;
import org.rpcmatrix.core.contract.ProtocolRegistry;
import org.rpcmatrix.httphost.RawHttp.Answer;
import org.rpcmatrix.httphost.RawHttp;

/**
 * The Java XML-RPC server's faults carry the codes of the XML-RPC fault code conventions (specs.xmlrpc.com),
 * where Apache XML-RPC answers 0; and the host's body limit (HTTP 413) holds through the library, which turns a
 * failed read into a fault of its own.
 */
class FaultCodeTest {
    private static final Path IDL = Path.of("..", "..", "idl");
    private static final Pattern FAULT_CODE =
            Pattern.compile("<name>faultCode</name><value><(?:i4|int)>(-?\\d+)</(?:i4|int)>");
    private static final String PROLOG = "<?xml version=\"1.0\"?>";
    private static final int MIB = 1 << 20;

    private static XmlRpcServer plain;
    private static XmlRpcServer gzip;

    @BeforeAll
    static void start() throws Exception {
        plain = start("xmlrpc");
        gzip = start("xmlrpc-gzip");
    }

    private static XmlRpcServer start(String protocol) throws Exception {
        return XmlRpcServer.start(new ServerOptions(ProtocolRegistry.load(IDL).require(protocol), "127.0.0.1", 0,
                IDL, null, Map.of()));
    }

    @AfterAll
    static void stop() throws Exception {
        plain.stop();
        gzip.stop();
    }

    /** A request document and the fault code it must be answered with. */
    static Stream<Arguments> faults() {
        String ping = "<methodCall><methodName>ping</methodName><params></params></methodCall>";
        String echo = PROLOG + "<methodCall><methodName>echoString</methodName><params><param><value><string>canary"
                + "</string></value></param></params></methodCall>";
        return Stream.of(
                // parse error, not well formed
                Arguments.of("cut off", echo.substring(0, echo.length() / 2), -32700),
                Arguments.of("not XML", "{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}", -32700),
                Arguments.of("empty", "", -32700),
                Arguments.of("DOCTYPE", PROLOG + "<!DOCTYPE methodCall [<!ENTITY a \"b\">]>" + ping, -32700),
                // parser limits, named as parse errors: nesting, text length
                Arguments.of("nested 100,000 deep", PROLOG + "<methodCall><methodName>echoString</methodName><params>"
                        + "<param>" + "<value><array><data>".repeat(100_000) + "</data></array></value>".repeat(100_000)
                        + "</param></params></methodCall>", -32700),
                Arguments.of("text of 5 Mi characters", PROLOG + "<methodCall><methodName>echoString</methodName><params>"
                        + "<param><value><string>" + "a".repeat(5 << 20) + "</string></value></param></params>"
                        + "</methodCall>", -32700),
                // invalid XML-RPC, not conforming to spec
                Arguments.of("not a methodCall", PROLOG + "<methodResponse><params></params></methodResponse>", -32600),
                Arguments.of("no methodName", PROLOG + "<methodCall><params></params></methodCall>", -32600),
                Arguments.of("unknown type", PROLOG + "<methodCall><methodName>echoString</methodName><params><param>"
                        + "<value><nosuchtype>x</nosuchtype></value></param></params></methodCall>", -32600),
                Arguments.of("vendor extension", PROLOG + "<methodCall xmlns:ex=\"http://ws.apache.org/xmlrpc/namespaces/"
                        + "extensions\"><methodName>echoInt64</methodName><params><param><value><ex:i8>5</ex:i8>"
                        + "</value></param></params></methodCall>", -32600),
                Arguments.of("unreadable int", PROLOG + "<methodCall><methodName>echoInt32</methodName><params><param>"
                        + "<value><i4>x</i4></value></param></params></methodCall>", -32600),
                // method not found
                Arguments.of("unknown method", PROLOG + "<methodCall><methodName>noSuchMethod</methodName><params>"
                        + "</params></methodCall>", -32601),
                Arguments.of("stream operation", PROLOG + "<methodCall><methodName>randomDoublesStream</methodName>"
                        + "<params></params></methodCall>", -32601),
                // invalid method parameters
                Arguments.of("parameter count", PROLOG + "<methodCall><methodName>echoInt32</methodName><params>"
                        + "</params></methodCall>", -32602),
                Arguments.of("parameter type", PROLOG + "<methodCall><methodName>echoInt32</methodName><params><param>"
                        + "<value><string>x</string></value></param></params></methodCall>", -32602),
                // the contract's own codes are untouched, 0 included
                Arguments.of("BenchError 0", PROLOG + "<methodCall><methodName>fail</methodName><params><param><value>"
                        + "<i4>0</i4></value></param><param><value><string>zero</string></value></param></params>"
                        + "</methodCall>", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theConventionalFaultCodes(String name, String document, int code) throws Exception {
        Answer answer = post(plain, "Content-Length: " + document.getBytes(StandardCharsets.UTF_8).length,
                document.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, answer.status(), excerpt(answer.text()));
        Matcher fault = FAULT_CODE.matcher(answer.text());
        assertTrue(fault.find(), excerpt(answer.text()));
        assertEquals(code, Integer.parseInt(fault.group(1)), excerpt(answer.text()));
    }

    @Test
    void theLargestContractTextIsStillRead() throws Exception {
        String mib = "x".repeat(1 << 20);
        byte[] call = (PROLOG + "<methodCall><methodName>echoString</methodName><params><param><value><string>" + mib
                + "</string></value></param></params></methodCall>").getBytes(StandardCharsets.UTF_8);
        Answer answer = post(plain, "Content-Length: " + call.length, call);
        assertEquals(200, answer.status());
        assertTrue(answer.text().contains("<value>" + mib + "</value>"), excerpt(answer.text()));
    }

    @Test
    void aBodyDeclaredOverTheLimitIs413() throws Exception {
        Answer answer = exchange(plain, out -> {
            out.write(head("Content-Length: " + (4L << 30)));
            out.write(new byte[1024]);
        });
        assertEquals(413, answer.status(), excerpt(answer.text()));
        assertServes(plain);
    }

    /** 65 MiB in comments (no text for the parser's text limit to stop first), chunked. */
    @Test
    void aChunkedBodyOverTheLimitIs413NotAFault() throws Exception {
        byte[] opening = (PROLOG + "<methodCall><methodName>ping</methodName>").getBytes(StandardCharsets.UTF_8);
        byte[] chunk = ("<!--" + "a".repeat(1017) + "-->").repeat(1024).getBytes(StandardCharsets.US_ASCII);
        Answer answer = exchange(plain, out -> {
            out.write(head("Transfer-Encoding: chunked"));
            out.write(chunk(opening));
            for (int i = 0; i < 65; i++) {
                out.write(chunk(chunk));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        });
        assertEquals(413, answer.status(), excerpt(answer.text()));
        assertServes(plain);
    }

    /** 65 MiB once inflated, in comments of 1 KiB (no text for the parser's text limit to stop first). */
    @Test
    void aGzipBodyOverTheLimitOnceInflatedIs413() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
            out.write((PROLOG + "<methodCall><methodName>ping</methodName>").getBytes(StandardCharsets.UTF_8));
            byte[] comment = ("<!--" + "a".repeat(1017) + "-->").getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 65 * 1024; i++) {
                out.write(comment);
            }
            out.write("<params></params></methodCall>".getBytes(StandardCharsets.UTF_8));
        }
        byte[] body = zipped.toByteArray();
        assertTrue(body.length < MIB, "a gzip bomb: " + body.length + " bytes");
        Answer answer = post(gzip, "Content-Encoding: gzip\r\nContent-Length: " + body.length, body);
        assertEquals(413, answer.status(), excerpt(answer.text()));
        assertServes(gzip);
    }

    /** The battery's gzip bomb: one string of 256 MiB, refused at the text limit, before it fills the heap. */
    @Test
    void aGzipBombOfOneStringIsAParseError() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
            out.write((PROLOG + "<methodCall><methodName>echoString</methodName><params><param><value><string>")
                    .getBytes(StandardCharsets.UTF_8));
            byte[] chunk = "A".repeat(MIB).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 256; i++) {
                out.write(chunk);
            }
            out.write("</string></value></param></params></methodCall>".getBytes(StandardCharsets.UTF_8));
        }
        byte[] body = zipped.toByteArray();
        Answer answer = post(gzip, "Content-Encoding: gzip\r\nContent-Length: " + body.length, body);
        assertEquals(200, answer.status(), excerpt(answer.text()));
        Matcher fault = FAULT_CODE.matcher(answer.text());
        assertTrue(fault.find(), excerpt(answer.text()));
        assertEquals(-32700, Integer.parseInt(fault.group(1)), excerpt(answer.text()));
        assertServes(gzip);
    }

    private static void assertServes(XmlRpcServer server) throws Exception {
        byte[] ping = (PROLOG + "<methodCall><methodName>echoInt32</methodName><params><param><value><i4>9</i4>"
                + "</value></param></params></methodCall>").getBytes(StandardCharsets.UTF_8);
        Answer answer = post(server, "Content-Length: " + ping.length, ping);
        assertEquals(200, answer.status(), excerpt(answer.text()));
        assertTrue(answer.text().contains("<i4>9</i4>") && !answer.text().contains("<fault>"), excerpt(answer.text()));
    }

    /** An answer's start, for a message (an echoed bomb is 256 MiB). */
    private static String excerpt(String text) {
        return text.length() <= 400 ? text : text.substring(0, 400) + "... (" + text.length() + " characters)";
    }

    private static Answer post(XmlRpcServer server, String header, byte[] body) throws Exception {
        return exchange(server, out -> {
            out.write(head(header));
            out.write(body);
        });
    }

    private static Answer exchange(XmlRpcServer server, RawHttp.Request request) throws Exception {
        return RawHttp.exchange(server.port(), request);
    }

    private static byte[] head(String header) {
        return ("POST " + XmlRpcServer.PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n" + header
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] chunk(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(data);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
