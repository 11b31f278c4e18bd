package dev.proactor.nio2;

import dev.proactor.AsynchHandler;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;

/**
 * The handler of a timer that is only ever posted: each posted completion runs {@link #run} on the pool thread
 * that dispatches it. How the provider hands work to a group's own threads (a delivery, a task given to
 * {@link ProactorChannelGroup#execute}).
 *
 * <p>Thread-safe if {@code run} is.
 */
final class PostedRun implements AsynchHandler {

    private final Runnable run;

    PostedRun(Runnable run) {
        this.run = run;
    }

    @Override
    public void onTimerCompleted(OpTimer op) {
        run.run();
    }

    @Override
    public void onReadCompleted(OpRead op) {
        throw new IllegalStateException("a posting timer reads nothing");
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        throw new IllegalStateException("a posting timer writes nothing");
    }
}
