package dev.proactor.examples.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately simple HTTP/1.1 client on a raw socket, for requests {@code java.net.http.HttpClient} would
 * normalise or refuse to send, and for watching the connection itself (keep-alive, pipelining, close). Every
 * read has a timeout, so a server that hangs fails the test instead of hanging it.
 */
final class RawHttp implements AutoCloseable {

    static final int READ_TIMEOUT_MILLIS = 5_000;

    /** A parsed response. Header names are lower-cased. */
    record Response(int status, Map<String, String> headers, byte[] body) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    final Socket socket;
    private final InputStream in;

    RawHttp(InetSocketAddress server) throws IOException {
        this(server, 0);
    }

    /**
     * @param receiveBufferBytes the socket's receive buffer, set before connecting so that the TCP window is
     *                           small and the server's sends are paced by what this client reads (0: default)
     */
    RawHttp(InetSocketAddress server, int receiveBufferBytes) throws IOException {
        socket = new Socket();
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(server, READ_TIMEOUT_MILLIS);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        in = socket.getInputStream();
    }

    RawHttp send(String request) throws IOException {
        return send(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return this;
    }

    /** Reads one response; {@code head} for the answer to a HEAD request (no body whatever the length says). */
    Response read(boolean head) throws IOException {
        return read(head, Integer.MAX_VALUE, 0);
    }

    /**
     * Reads one response to a GET like a slow client: the body in reads of at most {@code pieceBytes}, sleeping
     * {@code pauseMillis} after each.
     */
    Response readSlowly(int pieceBytes, long pauseMillis) throws IOException {
        return read(false, pieceBytes, pauseMillis);
    }

    private Response read(boolean head, int pieceBytes, long pauseMillis) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new EOFException("connection closed before a response");
        }
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
            throw new IOException("malformed status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new HashMap<>();
        for (String l = line(); ; l = line()) {
            if (l == null) {
                throw new EOFException("connection closed inside a response head");
            }
            if (l.isEmpty()) {
                break;
            }
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        String length = headers.get("content-length");
        int n = head || status == 304 || length == null ? 0 : Integer.parseInt(length);
        byte[] body = new byte[n];
        int got = 0;
        while (got < n) {
            int r = in.read(body, got, Math.min(n - got, pieceBytes));
            if (r == -1) {
                throw new EOFException("body ended after " + got + " of " + n + " bytes");
            }
            got += r;
            if (pauseMillis > 0) {
                pause(pauseMillis);
            }
        }
        return new Response(status, headers, body);
    }

    Response read() throws IOException {
        return read(false);
    }

    private static void pause(long millis) throws InterruptedIOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while pacing reads");
        }
    }

    /**
     * Reads whatever arrives until the server closes the connection (end-of-stream or a reset) and returns the
     * number of bytes read; a server that keeps it open fails with {@link java.net.SocketTimeoutException} after
     * {@link #READ_TIMEOUT_MILLIS} of silence (a hang guard).
     */
    long drainUntilClosed() throws IOException {
        byte[] b = new byte[64 * 1024];
        long total = 0;
        try {
            for (int n = in.read(b); n != -1; n = in.read(b)) {
                total += n;
            }
        } catch (java.net.SocketTimeoutException e) {
            throw e;
        } catch (java.net.SocketException e) {
            // reset: closed too
        }
        return total;
    }

    /** Whether the server closed the connection: the next read sees end-of-stream (or a reset). */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (java.net.SocketException e) {
            return true; // reset: closed too
        }
    }

    /** A line ending in CRLF, without it; null at end-of-stream before any byte. */
    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != -1; c = in.read()) {
            if (c == '\n') {
                byte[] bytes = b.toByteArray();
                int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
            }
            b.write(c);
        }
        if (b.size() > 0) {
            throw new EOFException("connection closed inside a line");
        }
        return null;
    }

    /** One request on a fresh connection; returns its response. */
    static Response exchange(InetSocketAddress server, String request) throws IOException {
        try (RawHttp c = new RawHttp(server)) {
            return c.send(request).read(request.startsWith("HEAD "));
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
