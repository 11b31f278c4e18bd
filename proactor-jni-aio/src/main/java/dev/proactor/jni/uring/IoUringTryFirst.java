package dev.proactor.jni.uring;

/**
 * Whether an operation a thread starts now is tried on its socket first or goes to the ring untried (see
 * {@link IoUringFeatures.TryFirst} and the package documentation, "Tried at start, or batched"): from how many
 * requests the leader's last turn completed, and whether a leader turn began since a read drained its socket.
 *
 * <p>The leader writes ({@link #turnStarted}, {@link #turnEnded}); starting threads read without ordering, under
 * their operation's channel monitor: a stale value only decides whether one operation is tried first.
 */
final class IoUringTryFirst {

    private final IoUringFeatures features;
    private final IoUringSubmission submission;
    /**
     * Requests the leader's last turn completed: with more than one, the operations their handlers start share the
     * next enter ({@link #tryAtStart()}). Written by the leader at the end of each turn; read by starters without
     * ordering, a stale value only decides whether one operation is tried first.
     */
    private volatile int lastTurnCompletions;
    /** See {@link #turns()}. */
    private volatile long turns;

    IoUringTryFirst(IoUringFeatures features, IoUringSubmission submission) {
        this.features = features;
        this.submission = submission;
    }

    /**
     * Whether a stream read or write the calling thread starts now is tried on the socket first (see
     * {@link IoUringFeatures.TryFirst}). Under the operation's channel monitor.
     */
    boolean tryAtStart() {
        return switch (features.tryFirst()) {
            case AUTO -> lastTurnCompletions < 2 || !submission.batchesWrittenEntries();
            case ALWAYS -> true;
            case NEVER -> false;
        };
    }

    /** Leader, at the end of a turn: the turn completed {@code completions} requests (see {@link #tryAtStart()}). */
    void turnEnded(int completions) {
        lastTurnCompletions = completions;
    }

    /** Whether operations are ever tried at start ({@code proactor.uring.tryFirst} is not {@code false}). */
    boolean triesAtStart() {
        return features.tryFirst() != IoUringFeatures.TryFirst.NEVER;
    }

    /**
     * Leader turns (waits) started so far: with {@link IoUringDirection#drainedAtTurn}, whether a socket was drained
     * since the leader last waited for completions. Turns, not reaps: a turn reaps before and after its enter, and
     * a read completed at the first reap was still counted stale by the second, so the read its callback started
     * tried the socket in vain. Written by the leader; a stale value read by another thread only makes a start try
     * a read it could have skipped, or skip a try it could have made: both safe.
     */
    long turns() {
        return turns;
    }

    /** Leader, at the start of each turn (see {@link #turns()}). */
    void turnStarted() {
        turns++; // the leader's only writer
    }
}
