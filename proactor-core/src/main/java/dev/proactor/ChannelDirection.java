package dev.proactor;

/**
 * One direction (input or output) of an {@link AsynchChannel}: at most one operation is active (in the
 * processor, the engine or being dispatched); later ones wait here in FIFO order. This is what keeps
 * completions of one direction in order and never concurrent. Guarded by synchronizing on this object.
 */
final class ChannelDirection {

    final String name;
    final OpQueue waiting = new OpQueue();
    /** The operation from start until its callback has returned, or null. */
    ChannelOp active;
    boolean closed;

    ChannelDirection(String name) {
        this.name = name;
    }

    /**
     * Takes a new operation. Caller holds the lock.
     *
     * @return {@code true} if the caller must start it now, {@code false} if it waits behind the active one
     */
    boolean admit(ChannelOp op) {
        if (active == null) {
            active = op;
            return true;
        }
        waiting.add(op);
        return false;
    }

    /**
     * Ends the active operation after its dispatch. Caller holds the lock.
     *
     * @return the next operation, now active, that the caller must start, or null
     */
    ChannelOp finishActive() {
        ChannelOp next = (ChannelOp) waiting.poll();
        active = next;
        return next;
    }
}
