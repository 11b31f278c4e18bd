package dev.proactor;

/** Where a processor's leader comes from (seed §7.1, §7.2). */
public enum LeaderMode {
    /** Any pool (or {@code handleEvents}) thread takes leadership in turn; it waits, then dispatches. */
    SHARED,
    /** The processor has its own permanent leader thread that only waits and queues results. */
    DEDICATED;

    /** The configuration spelling ({@code shared}, {@code dedicated}). */
    public String configName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
