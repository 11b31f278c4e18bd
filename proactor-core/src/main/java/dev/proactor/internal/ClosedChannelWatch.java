package dev.proactor.internal;

import java.nio.channels.Channel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Closes an {@link ChannelCore} whose wrapped JDK channel the user closed directly, behind its back (a misuse
 * the wrapping constructor makes possible). Without this a pending operation of such a channel could wait
 * forever: the {@code nio} engine's selector drops the key of a closed channel without reporting anything, and
 * the {@code epoll} engine, which works on its own duplicate of the descriptor, sees nothing until the peer
 * sends. Closing the {@code ChannelCore} completes its pending operations with
 * {@link java.nio.channels.AsynchronousCloseException} and releases what the engine holds, as {@link
 * ChannelCore#close()} does.
 *
 * <p>One daemon thread for the whole process checks the wrapped channels every {@value #PERIOD_MILLIS} ms (a
 * volatile read per channel); it runs only while at least one wrapped channel is open and ends when none is.
 * Channels the engines open or accept are never watched: nobody but their {@code ChannelCore} can close them.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
final class ClosedChannelWatch {

    /** How often the wrapped channels are checked. */
    static final long PERIOD_MILLIS = 250;

    private static final Map<ChannelCore, Channel> WATCHED = new ConcurrentHashMap<>();
    private static final Object LOCK = new Object();
    /** The checking thread, or null when none runs. Guarded by {@link #LOCK}. */
    private static Thread checker;

    private ClosedChannelWatch() {
    }

    /** Watches {@code wrapped}, the JDK channel {@code channel} was made from, until either is closed. */
    static void watch(ChannelCore channel, Channel wrapped) {
        WATCHED.put(channel, wrapped);
        synchronized (LOCK) {
            if (checker == null) {
                checker = new Thread(ClosedChannelWatch::run, "proactor-closed-channel-watch");
                checker.setDaemon(true);
                checker.start();
            }
        }
    }

    /** Stops watching {@code channel} (it was closed); does nothing if it was not watched. */
    static void unwatch(ChannelCore channel) {
        WATCHED.remove(channel);
    }

    /** Number of channels watched (tests). */
    static int watched() {
        return WATCHED.size();
    }

    private static void run() {
        for (;;) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                // Nobody owns this thread but this class: an interrupt only shortens one period.
            }
            for (Map.Entry<ChannelCore, Channel> e : WATCHED.entrySet()) {
                ChannelCore channel = e.getKey();
                if (!channel.isOpen()) {
                    WATCHED.remove(channel);
                } else if (!e.getValue().isOpen()) {
                    WATCHED.remove(channel);
                    closeBehindTheUsersBack(channel);
                }
            }
            synchronized (LOCK) {
                // watch() adds before it looks at checker under the lock, so an entry added after this check
                // starts a new thread.
                if (WATCHED.isEmpty()) {
                    checker = null;
                    return;
                }
            }
        }
    }

    private static void closeBehindTheUsersBack(ChannelCore channel) {
        Dispatcher.LOG.warn("the JDK channel wrapped by {} was closed directly; closing it so that its pending "
                + "operations complete (close the ChannelCore instead)", channel);
        try {
            channel.close();
        } catch (RuntimeException | Error e) {
            Dispatcher.LOG.error("closing {} failed", channel, e);
        }
    }
}
