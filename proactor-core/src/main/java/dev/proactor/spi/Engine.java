package dev.proactor.spi;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;

/**
 * An I/O engine (the seed's AIO_Provider): starts and cancels requests and supplies the wait strategy its
 * processor's leader waits with. Engines know nothing of handlers, threads or queues; the core's processor
 * calls them.
 *
 * <p>Threading: {@link #start(IoRequest)}, {@link #cancel(IoRequest, Throwable)} and the channel factories
 * may be called from any thread when {@link #canStartFromAnyThread()} is true (every engine of this project);
 * at most one request per direction of a channel is in the engine at a time (the core guarantees it).
 */
public interface Engine extends AutoCloseable {

    /** Engine name as configured ({@code nio}, {@code epoll}, ...). */
    String name();

    /** The wait strategy this engine instance was created with. */
    WaitStrategy waitStrategy();

    /** Whether this engine can run requests of the given kind. */
    boolean supports(OpKind kind);

    /** Whether {@link #start(IoRequest)} may be called from any thread (else only by the leader). */
    default boolean canStartFromAnyThread() {
        return true;
    }

    /**
     * Whether a request started by a thread other than the leader needs the leader interrupted so its wait
     * takes the request into account (true for selector-based engines).
     */
    boolean startInterruptsLeader();

    /** Most requests this engine can have in flight at once; {@link Integer#MAX_VALUE} for no limit. */
    default int maxInFlight() {
        return Integer.MAX_VALUE;
    }

    /**
     * Registers a channel made by the user (the seed constructor), e.g. a JDK {@code SocketChannel}.
     *
     * @throws IllegalArgumentException if this engine cannot work on that kind of channel
     * @throws IOException              if the registration fails
     */
    EngineChannel register(Channel channel) throws IOException;

    /** Opens an unconnected stream socket for {@code family} of the given address (or IPv4 if null). */
    EngineChannel openSocket(SocketAddress remoteHint) throws IOException;

    /** Opens a listening stream socket bound to {@code local} with the given backlog (0 = default). */
    EngineChannel openServer(SocketAddress local, int backlog) throws IOException;

    /** Turns the handle an ACCEPT request produced ({@link IoRequest#acceptedHandle()}) into a channel. */
    EngineChannel adopt(Object acceptedHandle) throws IOException;

    /** Closes an accepted handle nobody adopted. */
    void discard(Object acceptedHandle);

    /**
     * Starts a request. On {@link StartResult#COMPLETED} the result (bytes, error, accepted handle) is recorded
     * in the request and the caller posts it. Errors of the I/O itself are recorded, not thrown.
     */
    StartResult start(IoRequest request);

    /**
     * Cancels a pending request: if it is still pending it is removed, {@code reason} is recorded as its
     * error, and {@code true} is returned (the caller posts it). If it has already completed (it will come
     * out of the wait strategy) {@code false} is returned.
     */
    boolean cancel(IoRequest request, Throwable reason);

    /** Releases the engine and everything registered with it. Called once, after the leader has left. */
    @Override
    void close() throws IOException;
}
