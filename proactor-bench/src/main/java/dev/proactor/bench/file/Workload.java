package dev.proactor.bench.file;

import java.util.Locale;

/** The two access patterns of the file benchmark. */
public enum Workload {
    /** 4 KiB reads at uniformly random 4 KiB-aligned offsets. */
    RANDREAD("randread", 4096),
    /** 128 KiB reads at consecutive offsets, wrapping at the end of the file; each slot takes the next block. */
    READ("read", 128 * 1024);

    private final String fioName;
    private final int blockSize;

    Workload(String fioName, int blockSize) {
        this.fioName = fioName;
        this.blockSize = blockSize;
    }

    /** The name fio's {@code --rw} takes, also the name on the command line and in the results. */
    public String fioName() {
        return fioName;
    }

    /** Bytes per read. */
    public int blockSize() {
        return blockSize;
    }

    /**
     * The workload of a command-line name.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Workload byName(String name) {
        for (Workload w : values()) {
            if (w.fioName.equals(name.toLowerCase(Locale.ROOT))) {
                return w;
            }
        }
        throw new IllegalArgumentException("workload must be randread or read, was '" + name + "'");
    }
}
