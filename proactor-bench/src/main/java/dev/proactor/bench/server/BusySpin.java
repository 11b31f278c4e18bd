package dev.proactor.bench.server;

/** The simulated work per read completion: a busy spin on {@link System#nanoTime()}. */
public final class BusySpin {
    private BusySpin() {
    }

    /**
     * Spins for the given number of microseconds (returns at once for 0).
     *
     * @param micros microseconds to spin
     */
    public static void spin(int micros) {
        if (micros <= 0) {
            return;
        }
        long deadline = System.nanoTime() + micros * 1_000L;
        while (System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }
}
