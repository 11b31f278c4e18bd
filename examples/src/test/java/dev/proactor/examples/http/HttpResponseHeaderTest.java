package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpResponseHeaderTest {

    private static final long NOW = 784111777_000L;
    private final HttpResponseHeader header = new HttpResponseHeader(HttpResponseHeader.HEAD_CAPACITY + 100);

    private static String text(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    @Test
    void buildsAHeadWithDateServerAndFields() {
        String s = text(header.start(200, NOW).field("Content-Type", "text/plain").field("Content-Length", 0)
                .field("X-Big", Long.MAX_VALUE).dateField("Last-Modified", 0).connection(true, 1).finish());
        assertEquals("HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nServer: proactor-examples\r\n"
                + "Content-Type: text/plain\r\nContent-Length: 0\r\nX-Big: 9223372036854775807\r\n"
                + "Last-Modified: Thu, 01 Jan 1970 00:00:00 GMT\r\n\r\n", s);
    }

    @Test
    void reusesTheBufferForTheNextResponse() {
        header.start(200, NOW).field("A", "a".repeat(500)).finish();
        String s = text(header.start(304, NOW).connection(false, 1).finish());
        assertTrue(s.startsWith("HTTP/1.1 304 Not Modified\r\n"), s);
        assertTrue(s.endsWith("Connection: close\r\n\r\n"), s);
        assertTrue(s.length() < 200);
    }

    @Test
    void tellsAnHttp10ClientItsConnectionIsKept() {
        assertTrue(text(header.start(200, NOW).connection(true, 0).finish()).contains("Connection: keep-alive\r\n"));
    }

    @Test
    void buildsErrorResponses() {
        String s = text(header.error(405, NOW, true, 1, false));
        assertTrue(s.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"), s);
        assertTrue(s.contains("Allow: GET, HEAD\r\n"), s);
        assertTrue(s.contains("Content-Length: 23\r\n"), s);
        assertTrue(s.endsWith("\r\n\r\n405 Method Not Allowed\n"), s);

        String head = text(header.error(404, NOW, false, 1, true));
        assertTrue(head.contains("Content-Length: 14\r\n"), "HEAD keeps the length of the body it omits: " + head);
        assertTrue(head.endsWith("Connection: close\r\n\r\n"), head);

        assertTrue(text(header.error(503, NOW, false, 1, false)).contains("Retry-After: 1\r\n"));
    }

    @Test
    void appendsASmallFileBodyBehindTheHead(@TempDir Path tmp) throws IOException {
        Path f = Files.writeString(tmp.resolve("f.txt"), "0123456789");
        try (FileChannel ch = FileChannel.open(f)) {
            String s = text(header.start(200, NOW).field("Content-Length", 10).finish(ch, 10));
            assertTrue(s.endsWith("Content-Length: 10\r\n\r\n0123456789"), s);
            assertThrows(EOFException.class, () -> header.start(200, NOW).finish(ch, 11));
            assertThrows(IllegalArgumentException.class,
                    () -> header.start(200, NOW).finish(ch, HttpResponseHeader.HEAD_CAPACITY + 100));
        }
    }

    @Test
    void rejectsStatusesItDoesNotKnow() {
        assertThrows(IllegalArgumentException.class, () -> header.start(418, NOW));
        assertThrows(IllegalArgumentException.class, () -> header.start(1000, NOW));
    }
}
