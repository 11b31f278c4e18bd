package dev.proactor.nio2.files;

import dev.proactor.nio2.ProactorFiles;

/**
 * One read or write of a {@link ProactorFiles} channel while it is in a {@link FileLanes lane}: the lane it runs on
 * and what its completion does. The lane fields belong to {@link FileLanes}.
 */
abstract class LaneTransfer {

    /** The lane the operation runs on, while it runs; written and read by {@link FileLanes}. */
    FileLanes.Lane lane;
    /** Whether the operation holds {@link #lane} alone (it goes back to the idle lanes when it completes). */
    boolean exclusive;

    /**
     * The operation completed; called once on a thread dispatching the lane's completions, after the lane was
     * released. Must not throw: an exception would close the lane.
     *
     * @param bytes bytes moved: -1 at end of file for a read; for a failed write, those written before the error
     * @param error the failure, or null
     */
    abstract void laneDone(long bytes, Throwable error);
}
