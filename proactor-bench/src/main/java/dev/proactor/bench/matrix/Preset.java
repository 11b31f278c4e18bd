package dev.proactor.bench.matrix;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The built-in tables.
 *
 * <p>{@link #QUICK}: sessions 1 and 100, block 512, window 0 and 8x, 1 thread, no delay, and one session with
 * 2 blocks in flight; 1 run of 3 s after 2 s warm-up. A smoke test, under 3 minutes; one run is too few for a
 * published table (the tail and the fairness figures vary from run to run).
 *
 * <p>{@link #FULL}: one-factor-at-a-time sweeps around the base point (block 512, 1 thread,
 * no delay), because the full product (540 rows) would take days:
 * <ol>
 *   <li>throughput vs sessions: sessions 1/40/100/1000/10000 x window 0 (ping-pong) and 8x;</li>
 *   <li>throughput vs block: block 1/1024/8192 (512 is in sweep 1) at 100 sessions, window 8x;</li>
 *   <li>threads 2 and 4 at 1000 sessions, window 8x;</li>
 *   <li>delay 10 and 200 us at 100 sessions, window 8x, 1 thread; and delay 200 us with 4 threads;</li>
 *   <li>one session with 2 blocks in flight.</li>
 * </ol>
 * Window = 1x block is not a separate row: with one block in flight the load generator
 * behaves exactly as in ping-pong. 19 rows, 3 runs of 3 s after 5 s warm-up each: about
 * 2 h 10 min with the 14 servers. Tables given on the command line take the same timing
 * unless {@code --quick} is given.
 */
public enum Preset {
    /** Smoke test, under 3 minutes. */
    QUICK(1, 3, 2),
    /** The documented subset of the full table, 3 runs per point, about 2 h with the default servers. */
    FULL(3, 3, 5);

    private final int runs;
    private final int seconds;
    private final int warmup;

    Preset(int runs, int seconds, int warmup) {
        this.runs = runs;
        this.seconds = seconds;
        this.warmup = warmup;
    }

    /**
     * Default repetitions of each point.
     *
     * @return runs
     */
    public int runs() {
        return runs;
    }

    /**
     * Default measured seconds per run.
     *
     * @return seconds
     */
    public int seconds() {
        return seconds;
    }

    /**
     * Default warm-up seconds per run.
     *
     * @return seconds
     */
    public int warmup() {
        return warmup;
    }

    /**
     * The preset's rows.
     *
     * @return rows in run order, without duplicates
     */
    public List<Row> rows() {
        LinkedHashSet<Row> rows = new LinkedHashSet<>();
        if (this == QUICK) {
            for (int sessions : new int[] {1, 100}) {
                rows.add(row(sessions, 1, 512, "0", 0));
                rows.add(row(sessions, 1, 512, "8x", 0));
            }
            rows.add(oneSessionTwoBlocks());
            return new ArrayList<>(rows);
        }
        for (String window : new String[] {"0", "8x"}) {
            for (int sessions : new int[] {1, 40, 100, 1000, 10000}) {
                rows.add(row(sessions, 1, 512, window, 0));
            }
        }
        for (int block : new int[] {1, 1024, 8192}) {
            rows.add(row(100, 1, block, "8x", 0));
        }
        for (int threads : new int[] {2, 4}) {
            rows.add(row(1000, threads, 512, "8x", 0));
        }
        for (int delay : new int[] {10, 200}) {
            rows.add(row(100, 1, 512, "8x", delay));
        }
        rows.add(row(100, 4, 512, "8x", 200));
        rows.add(oneSessionTwoBlocks());
        return new ArrayList<>(rows);
    }

    /**
     * One session with two blocks in flight: the row where the epoll engine once fell to three quarters of Netty's
     * epoll transport unseen (a pipelined single connection exercises the start path, not the poll loop).
     */
    static Row oneSessionTwoBlocks() {
        return row(1, 1, 512, "2x", 0);
    }

    private static Row row(int sessions, int threads, int block, String window, int delay) {
        return new Row(sessions, threads, block, new WindowSpec(window).bytes(block), window, delay);
    }
}
