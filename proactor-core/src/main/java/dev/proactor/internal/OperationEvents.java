package dev.proactor.internal;

import dev.proactor.OperationCancelledException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.InterruptedByTimeoutException;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * JDK Flight Recorder events of the framework, off unless a recording enables them (e.g.
 * {@code -XX:StartFlightRecording}, or a {@code jdk.jfr.Recording} that enables {@code dev.proactor.Operation});
 * when none does the cost is one read of JFR's "initialized" flag per operation start and per hand-off (plus the
 * event type's enabled flag once JFR runs), and nothing is allocated. The event types are registered with JFR
 * only once JFR has been initialized, so a JVM that never records never pays JFR's start-up (about a tenth of a
 * second).
 *
 * <ul>
 *   <li>{@code dev.proactor.Operation}: an I/O operation whose time from submission to the start of its callback
 *       reached the threshold ({@code -Dproactor.jfr.thresholdMillis}, default 10);</li>
 *   <li>{@code dev.proactor.LeaderHandOff}: a thread woke a follower to take over the poll or the queue.</li>
 * </ul>
 */
final class OperationEvents {

    /** Operations shorter than this are not recorded. */
    static final long THRESHOLD_NANOS = thresholdMillis() * 1_000_000L;

    private OperationEvents() {
    }

    /** {@code proactor.jfr.thresholdMillis}, 10 if absent or not a number (read as {@link Long#getLong} reads). */
    private static long thresholdMillis() {
        try {
            return Long.decode(LibraryProperties.get("proactor.jfr.thresholdMillis", "10"));
        } catch (NumberFormatException e) {
            return 10;
        }
    }

    /** The event types, registered with JFR when first needed (class initialization of the holder). */
    private static final class Types {
        static final EventType OPERATION = EventType.getEventType(OperationEvent.class);
        static final EventType HAND_OFF = EventType.getEventType(HandOffEvent.class);
    }

    /** Whether an operation submitted now should be timed. */
    static boolean timing() {
        return FlightRecorder.isInitialized() && Types.OPERATION.isEnabled();
    }

    /** Records {@code op} if it took at least the threshold since {@code startNanos}. Dispatching thread. */
    static void operationDispatched(ChannelSlot op, long startNanos) {
        long took = System.nanoTime() - startNanos;
        if (took < THRESHOLD_NANOS) {
            return;
        }
        OperationEvent e = new OperationEvent();
        e.kind = op.getKind().name();
        e.channel = op.channel.toString();
        e.bytes = op.request.bytes();
        Throwable error = op.request.error();
        e.error = error == null ? null : error.getClass().getName();
        e.took = took;
        e.commit();
    }

    /** A follower is woken. Dispatcher lock held: only the enabled check runs when off. */
    static void leaderHandOff(int followers, int queued) {
        if (!FlightRecorder.isInitialized() || !Types.HAND_OFF.isEnabled()) {
            return;
        }
        HandOffEvent e = new HandOffEvent();
        e.followers = followers;
        e.queued = queued;
        e.commit();
    }

    /** Whether an operation's error means it was cancelled, closed or timed out rather than failed. */
    static boolean isCancellation(Throwable error) {
        return error instanceof OperationCancelledException || error instanceof AsynchronousCloseException
                || error instanceof InterruptedByTimeoutException;
    }

    @Name("dev.proactor.Operation")
    @Label("Proactor Operation")
    @Category({"Proactor"})
    @Description("An I/O operation whose time from submission to its callback reached the threshold")
    static final class OperationEvent extends Event {
        @Label("Kind")
        String kind;
        @Label("Channel")
        String channel;
        @Label("Bytes")
        long bytes;
        @Label("Error")
        String error;
        @Label("Took")
        @Timespan(Timespan.NANOSECONDS)
        long took;
    }

    @Name("dev.proactor.LeaderHandOff")
    @Label("Proactor Leader Hand-off")
    @Category({"Proactor"})
    @Description("A demultiplexor thread woke a sleeping follower to take over the poll or the queue")
    static final class HandOffEvent extends Event {
        @Label("Sleeping followers")
        int followers;
        @Label("Queued completions")
        int queued;
    }
}
