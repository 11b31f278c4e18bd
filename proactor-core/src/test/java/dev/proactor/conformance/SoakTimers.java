package dev.proactor.conformance;

import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Timers scheduled and cancelled continuously by a driver thread: a fixed set of reusable timers, each
 * scheduled 0-20 ms ahead when idle, and about a third of the scheduled ones cancelled again. A timer whose
 * {@code cancel()} returned true must never fire; one scheduled once must fire once; when the driver stops,
 * every timer still scheduled must fire (within a hang guard).
 */
final class SoakTimers {

    private static final int TIMERS = 32;
    private static final int IDLE = 0;
    private static final int SCHEDULED = 1;

    private final SoakStats stats;
    private final Slot[] slots = new Slot[TIMERS];
    private final Thread driver;
    private volatile boolean running = true;

    private final class Slot implements AsynchHandler {
        final int index;
        final AtomicInteger state = new AtomicInteger(IDLE);
        final OpTimer timer;

        Slot(Demultiplexor demux, int index) {
            this.index = index;
            this.timer = demux.newTimer(this);
        }

        @Override
        public void onTimerCompleted(OpTimer op) {
            stats.timersFired.increment();
            if (!state.compareAndSet(SCHEDULED, IDLE)) {
                stats.timerViolations.increment();
                stats.detail("timer violation", "timer " + index + " fired although it was not scheduled"
                        + " (its cancel() had returned true, or it fired twice)");
            }
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new AssertionError("timer handler got a read");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new AssertionError("timer handler got a write");
        }
    }

    SoakTimers(Demultiplexor demux, SoakStats stats, long seed) {
        this.stats = stats;
        for (int i = 0; i < TIMERS; i++) {
            slots[i] = new Slot(demux, i);
        }
        SplittableRandom rnd = new SplittableRandom(SoakPattern.mix(seed + 5));
        this.driver = new Thread(() -> drive(rnd), "soak-timers");
        driver.setDaemon(true);
    }

    void start() {
        driver.start();
    }

    private void drive(SplittableRandom rnd) {
        while (running) {
            for (int n = 0; n < 8; n++) {
                Slot s = slots[rnd.nextInt(TIMERS)];
                if (s.state.get() == IDLE) {
                    s.state.set(SCHEDULED);
                    try {
                        s.timer.schedule(rnd.nextInt(20_000), TimeUnit.MICROSECONDS);
                        stats.timersScheduled.increment();
                    } catch (IllegalStateException e) {
                        s.state.set(IDLE);
                        stats.detail("timer violation", "schedule() threw " + e);
                        stats.timerViolations.increment();
                    }
                } else if (rnd.nextInt(3) == 0) {
                    if (s.timer.cancel()) {
                        stats.timersCancelled.increment();
                        if (!s.state.compareAndSet(SCHEDULED, IDLE)) {
                            stats.timerViolations.increment();
                            stats.detail("timer violation", "timer " + s.index + " fired although cancel() "
                                    + "returned true");
                        }
                    } else {
                        stats.timerCancelMissed.increment(); // already fired or firing: its callback says so
                    }
                }
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Stops scheduling and waits (hang guard) for every scheduled timer to fire.
     *
     * @return the number of timers still scheduled when the guard expired
     */
    long stopAndAwait(long guardMillis) throws InterruptedException {
        running = false;
        driver.join(guardMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(guardMillis);
        while (true) {
            long pending = 0;
            for (Slot s : slots) {
                if (s.state.get() == SCHEDULED) {
                    pending++;
                }
            }
            if (pending == 0 || System.nanoTime() - deadline > 0) {
                return pending;
            }
            Thread.sleep(10);
        }
    }
}
