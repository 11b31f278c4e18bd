package dev.proactor;

import dev.proactor.internal.ChannelCore;
import dev.proactor.internal.ChannelSlot;
import dev.proactor.internal.DemultiplexorCore;
import dev.proactor.internal.TimerSlot;

/** The owners behind the public objects, for the tests of the internal package (they are package private). */
@SuppressWarnings("exports") // test code of this module only: the types it returns are not exported
public final class Internals {

    private Internals() {
    }

    /** The state of {@code channel}. */
    public static ChannelCore core(AsynchChannel channel) {
        return channel.core;
    }

    /** The machinery of {@code demultiplexor}. */
    public static DemultiplexorCore core(Demultiplexor demultiplexor) {
        return demultiplexor.core;
    }

    /** The state of {@code op}. */
    public static ChannelSlot slot(ChannelOp op) {
        return op.slot;
    }

    /** The state of {@code timer}. */
    public static TimerSlot slot(OpTimer timer) {
        return timer.slot;
    }
}
