package dev.proactor.bench.tls;

/** How the client loads a server. */
public enum Mode {
    /** Several blocks in flight per session ({@code --window}): throughput. */
    WINDOW("window"),
    /** One block in flight per session: throughput and round-trip percentiles. */
    PING_PONG("ping-pong");

    private final String label;

    Mode(String label) {
        this.label = label;
    }

    /**
     * The name on the command line and in the results.
     *
     * @return e.g. {@code ping-pong}
     */
    public String label() {
        return label;
    }

    /**
     * Parses a command-line name.
     *
     * @param s {@code window} or {@code ping-pong}
     * @return the mode
     * @throws IllegalArgumentException for another name
     */
    public static Mode parse(String s) {
        for (Mode m : values()) {
            if (m.label.equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode must be window or ping-pong, was '" + s + "'");
    }
}
