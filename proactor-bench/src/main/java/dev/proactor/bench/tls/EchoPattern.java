package dev.proactor.bench.tls;

/**
 * The bytes the client sends: byte {@code i} of a session's stream is {@code i mod 251} (a prime, so a block
 * shifted, duplicated or lost changes what arrives at every block size), so each echoed byte can be checked
 * from its stream offset alone.
 */
final class EchoPattern {
    private static final int PERIOD = 251;

    private final byte[] bytes;

    /** A pattern long enough to copy any block of up to {@code maxBlock} bytes from any offset. */
    EchoPattern(int maxBlock) {
        bytes = new byte[PERIOD + maxBlock];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i % PERIOD);
        }
    }

    /** The array to copy a block from. */
    byte[] bytes() {
        return bytes;
    }

    /** Where in {@link #bytes()} the block starting at stream offset {@code offset} begins. */
    static int start(long offset) {
        return (int) (offset % PERIOD);
    }

    /** The byte expected at stream offset {@code offset}. */
    static byte expected(long offset) {
        return (byte) (offset % PERIOD);
    }
}
