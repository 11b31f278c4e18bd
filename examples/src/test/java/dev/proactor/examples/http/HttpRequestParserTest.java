package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HttpRequestParserTest {

    private static final int MAX_LINE = 256;
    private static final int MAX_HEAD = 1024;
    private static final int MAX_HEADERS = 8;

    private final HttpRequestParser parser = new HttpRequestParser(MAX_LINE, MAX_HEAD, MAX_HEADERS);
    private final HttpRequest request = new HttpRequest();

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private int parse(String s) {
        return parser.parse(bytes(s), request);
    }

    @Test
    void parsesASimpleGet() {
        ByteBuffer b = bytes("GET /index.html?x=1 HTTP/1.1\r\nHost: example\r\nAccept: */*\r\n\r\n");
        assertEquals(HttpRequestParser.COMPLETE, parser.parse(b, request));
        assertEquals(HttpRequest.Method.GET, request.method());
        assertEquals("/index.html?x=1", request.target());
        assertEquals(1, request.minorVersion());
        assertTrue(request.keepAlive());
        assertEquals(HttpRequest.NO_DATE, request.ifModifiedSinceSeconds());
        assertFalse(b.hasRemaining(), "position advanced past the head");
    }

    @Test
    void recognisesHeadAndTreatsOtherTokensAsOther() {
        assertEquals(HttpRequestParser.COMPLETE, parse("HEAD / HTTP/1.1\r\nHost: h\r\n\r\n"));
        assertEquals(HttpRequest.Method.HEAD, request.method());
        assertEquals(HttpRequestParser.COMPLETE, parse("DELETE / HTTP/1.1\r\nHost: h\r\n\r\n"));
        assertEquals(HttpRequest.Method.OTHER, request.method());
        assertEquals(HttpRequestParser.COMPLETE, parse("get / HTTP/1.1\r\nHost: h\r\n\r\n"));
        assertEquals(HttpRequest.Method.OTHER, request.method(), "methods are case-sensitive");
        assertEquals(HttpRequestParser.COMPLETE, parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"));
        assertEquals(HttpRequest.Method.OTHER, request.method());
    }

    @Test
    void acceptsBareLfLeadingEmptyLinesAndAbsoluteForm() {
        assertEquals(HttpRequestParser.COMPLETE, parse("\r\n\nGET http://h/a HTTP/1.1\nHost: h\n\n"));
        assertEquals("http://h/a", request.target());
    }

    @Test
    void isIncrementalByteByByte() {
        String head = "GET /a HTTP/1.1\r\nHost: h\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n";
        ByteBuffer b = ByteBuffer.allocate(MAX_HEAD);
        for (int i = 0; i < head.length(); i++) {
            b.put((byte) head.charAt(i)).flip();
            int r = parser.parse(b, request);
            if (i < head.length() - 1) {
                assertEquals(HttpRequestParser.NEED_MORE, r, "after byte " + i);
                assertEquals(0, b.position());
                b.compact();
            } else {
                assertEquals(HttpRequestParser.COMPLETE, r);
            }
        }
        assertEquals("/a", request.target());
        assertEquals(784111777L, request.ifModifiedSinceSeconds());
    }

    @Test
    void survivesCompactionOfAPartialHeadThatDidNotStartAtZero() {
        ByteBuffer b = ByteBuffer.allocate(MAX_HEAD);
        b.put("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HT".getBytes(StandardCharsets.US_ASCII)).flip();
        assertEquals(HttpRequestParser.COMPLETE, parser.parse(b, request));
        assertEquals("/1", request.target());
        assertEquals(HttpRequestParser.NEED_MORE, parser.parse(b, request));
        b.compact(); // moves "GET /2 HT" to index 0, as the connection does before reading more
        b.put("TP/1.1\r\nHost: h\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).flip();
        assertEquals(HttpRequestParser.COMPLETE, parser.parse(b, request));
        assertEquals("/2", request.target());
    }

    @Test
    void parsesPipelinedRequestsOneAtATime() {
        ByteBuffer b = bytes("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nHEAD /2 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /3 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        String[] targets = {"/1", "/2", "/3"};
        for (String t : targets) {
            assertEquals(HttpRequestParser.COMPLETE, parser.parse(b, request));
            assertEquals(t, request.target());
        }
        assertFalse(request.keepAlive());
        assertFalse(b.hasRemaining());
        assertEquals(HttpRequestParser.NEED_MORE, parser.parse(b, request));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "HTTP/1.1 |                          | true",
        "HTTP/1.1 | Connection: close        | false",
        "HTTP/1.1 | Connection: foo, Close   | false",
        "HTTP/1.1 | Connection: keep-alive   | true",
        "HTTP/1.0 |                          | false",
        "HTTP/1.0 | Connection: Keep-Alive   | true",
        "HTTP/1.0 | Connection: keep-alive, close | false",
        "HTTP/1.9 |                          | true",
    })
    void decidesKeepAlive(String version, String header, boolean keepAlive) {
        String extra = header == null ? "" : header + "\r\n";
        assertEquals(HttpRequestParser.COMPLETE, parse("GET / " + version + "\r\nHost: h\r\n" + extra + "\r\n"));
        assertEquals(keepAlive, request.keepAlive());
    }

    @Test
    void http10NeedsNoHostAndInvalidDatesAreIgnored() {
        assertEquals(HttpRequestParser.COMPLETE, parse("GET / HTTP/1.0\r\nIf-Modified-Since: yesterday\r\n\r\n"));
        assertEquals(0, request.minorVersion());
        assertEquals(HttpRequest.NO_DATE, request.ifModifiedSinceSeconds());
    }

    @Test
    void acceptsZeroAndRepeatedEqualContentLength() {
        assertEquals(HttpRequestParser.COMPLETE,
                parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\ncontent-length: 0\r\n\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "GET\r\n\r\n",                                        // no target, no version
        "GET /\r\nHost: h\r\n\r\n",                           // HTTP/0.9 style
        "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",                 // two spaces
        " GET / HTTP/1.1\r\nHost: h\r\n\r\n",                 // leading space
        "GET / HTTP/1.1 \r\nHost: h\r\n\r\n",                 // trailing space
        "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n",               // space in target
        "GET / http/1.1\r\nHost: h\r\n\r\n",                  // lower-case version
        "GET / HTTP/1\r\nHost: h\r\n\r\n",                    // no minor
        "GET / HTTP/1.10\r\nHost: h\r\n\r\n",                 // two-digit minor
        "GET / HTTP/x.1\r\nHost: h\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",                  // not a token
        "GET /\u0001 HTTP/1.1\r\nHost: h\r\n\r\n",            // control character in target
        "GET /\u00e9 HTTP/1.1\r\nHost: h\r\n\r\n",            // non-ASCII in target
        "GET /\u007f HTTP/1.1\r\nHost: h\r\n\r\n",            // DEL in target
        "GET / HTTP/1.1\rX\r\nHost: h\r\n\r\n",               // bare CR in the request line
        "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n",            // bare CR in a header line
        "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",       // obsolete line folding
        "GET / HTTP/1.1\r\nHost: h\r\n\tfolded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : h\r\n\r\n",                 // space before the colon
        "GET / HTTP/1.1\r\n: h\r\nHost: h\r\n\r\n",           // empty field name
        "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nX-A(: b\r\n\r\n",       // not a token
        "GET / HTTP/1.1\r\nHost: h\r\nX: a\u0000b\r\n\r\n",   // NUL in a value
        "GET / HTTP/1.1\r\nHost: h\r\nX: a\u007fb\r\n\r\n",   // DEL in a value
        "GET / HTTP/1.1\r\n\r\n",                             // HTTP/1.1 without Host
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",       // two Hosts
        "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n",
        "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
    })
    void rejectsMalformedRequestsWith400(String head) {
        assertEquals(400, parse(head), head);
        assertNotNull(parser.errorDetail());
    }

    @Test
    void rejectsTransferEncodingWith411() {
        assertEquals(411, parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "1024", "99999999999999999999999999999"})
    void rejectsBodiesWith413(String length) {
        assertEquals(413, parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: " + length + "\r\n\r\n"));
    }

    @Test
    void rejectsALongRequestLineWith414EvenBeforeItEnds() {
        String target = "/" + "a".repeat(MAX_LINE);
        assertEquals(414, parse("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n"));
        parser.reset();
        assertEquals(414, parse("GET " + target));
        parser.reset();
        String fits = "/" + "a".repeat(MAX_LINE - 15);
        assertEquals(HttpRequestParser.COMPLETE, parse("GET " + fits + " HTTP/1.1\r\nHost: h\r\n\r\n"));
    }

    @Test
    void rejectsTooManyHeadersWith431() {
        StringBuilder s = new StringBuilder("GET / HTTP/1.1\r\nHost: h\r\n");
        for (int i = 1; i < MAX_HEADERS; i++) {
            s.append("X-").append(i).append(": v\r\n");
        }
        assertEquals(HttpRequestParser.COMPLETE, parse(s + "\r\n"), "exactly the limit");
        assertEquals(431, parse(s + "X-Last: v\r\n\r\n"));
    }

    @Test
    void rejectsAHeadLargerThanTheLimitWith431() {
        String big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + "v".repeat(MAX_HEAD) + "\r\n\r\n";
        assertEquals(431, parse(big));
        parser.reset();
        // Partial head that fills the whole limit: no end can come any more.
        assertEquals(431, parse(big.substring(0, MAX_HEAD)));
        parser.reset();
        assertEquals(HttpRequestParser.NEED_MORE, parse(big.substring(0, MAX_HEAD - 1)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/2.0", "HTTP/0.9", "HTTP/3.1"})
    void rejectsOtherMajorVersionsWith505(String version) {
        assertEquals(505, parse("GET / " + version + "\r\nHost: h\r\n\r\n"));
    }

    @Test
    void needsMoreForEveryPrefixOfAValidHead() {
        String head = "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n";
        for (int i = 0; i < head.length(); i++) {
            parser.reset();
            assertEquals(HttpRequestParser.NEED_MORE, parse(head.substring(0, i)), "prefix " + i);
        }
    }

    @Test
    void rejectsLimitsThatCannotHoldARequest() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new HttpRequestParser(8, 100, 1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new HttpRequestParser(100, 50, 1));
    }
}
