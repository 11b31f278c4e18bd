package dev.proactor.examples;

/** Simulated handler work for benchmarks: spins for a number of microseconds (the seeds' "delay" column). */
final class BusyWork {

    private BusyWork() {
    }

    /** Spins for {@code micros} microseconds; returns at once for 0. */
    static void spin(int micros) {
        if (micros <= 0) {
            return;
        }
        long end = System.nanoTime() + micros * 1_000L;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
