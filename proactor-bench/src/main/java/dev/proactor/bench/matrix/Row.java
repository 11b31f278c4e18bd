package dev.proactor.bench.matrix;

/**
 * One point of the workload table.
 *
 * @param sessions    TCP connections
 * @param threads     server demultiplexor threads ({@code --threads})
 * @param block       bytes per client write
 * @param window      bytes in flight per session, 0 = ping-pong
 * @param windowLabel how the window was asked for ({@code 0}, {@code 8x}, or bytes)
 * @param delayUs     busy work per read completion in the server
 */
public record Row(int sessions, int threads, int block, int window, String windowLabel, int delayUs) {

    /**
     * Validates the row.
     *
     * @param sessions    TCP connections
     * @param threads     server threads
     * @param block       bytes per write
     * @param window      bytes in flight
     * @param windowLabel window as asked
     * @param delayUs     server work per read
     */
    public Row {
        if (sessions < 1 || threads < 1 || block < 1 || delayUs < 0) {
            throw new IllegalArgumentException("invalid row: sessions=" + sessions + " threads=" + threads
                    + " block=" + block + " delay=" + delayUs);
        }
        if (window != 0 && window < block) {
            throw new IllegalArgumentException("window " + window + " is smaller than block " + block
                    + " (use 0 for ping-pong)");
        }
    }

    /**
     * Whether the row is half-duplex ping-pong.
     *
     * @return true when window is 0
     */
    public boolean pingPong() {
        return window == 0;
    }

    /**
     * The block in words, e.g. {@code 1 KiB} or {@code 100 B}.
     *
     * @return the description
     */
    public String blockText() {
        return block % 1024 == 0 ? block / 1024 + " KiB" : block + " B";
    }

    /**
     * Human-readable window, e.g. {@code 0 (ping-pong)} or {@code 4096 (8x block)}.
     *
     * @return the description
     */
    public String windowText() {
        if (window == 0) {
            return "0 (ping-pong)";
        }
        if (windowLabel.endsWith("x")) {
            return window + " (" + windowLabel + " block)";
        }
        return Integer.toString(window);
    }

    /**
     * One-line description used in progress output and headings.
     *
     * @return the description
     */
    public String describe() {
        return "sessions=" + sessions + " threads=" + threads + " block=" + block
                + " window=" + windowText() + " delay=" + delayUs + "us";
    }
}
