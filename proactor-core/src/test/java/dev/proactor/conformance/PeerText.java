package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * ASCII text through the blocking JDK socket at the other end of a connection an engine drives (tests that drive an
 * engine through its SPI and check what its peer sees).
 */
public final class PeerText {

    private PeerText() {
    }

    /** Writes {@code text} to {@code peer}. */
    public static void send(SocketChannel peer, String text) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (b.hasRemaining()) {
            peer.write(b);
        }
    }

    /** Reads exactly {@code length} bytes from {@code peer}; fails the test at an end of stream. */
    public static String receive(SocketChannel peer, int length) throws IOException {
        ByteBuffer got = ByteBuffer.allocate(length);
        while (got.hasRemaining()) {
            if (peer.read(got) < 0) {
                fail("the peer saw an end of stream");
            }
        }
        return text(got);
    }

    /** The bytes written into {@code buffer} (flipped here), as ASCII. */
    public static String text(ByteBuffer buffer) {
        return StandardCharsets.US_ASCII.decode(buffer.flip()).toString();
    }
}
