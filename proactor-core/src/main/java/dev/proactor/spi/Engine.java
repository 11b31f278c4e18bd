package dev.proactor.spi;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

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
     * Registers a channel made by the user (the seed constructor), e.g. a JDK {@code SocketChannel} (or a
     * {@code DatagramChannel}, for engines that support {@link OpKind#RECEIVE}).
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
     * Opens a datagram socket bound to {@code local} (port 0 picks a free port), unconnected. Engines that
     * support {@link OpKind#RECEIVE} and {@link OpKind#SEND} override this.
     *
     * @throws UnsupportedOperationException if this engine has no datagram channels (the default)
     * @throws IOException                   if the socket cannot be opened or bound
     */
    default EngineChannel openDatagram(SocketAddress local) throws IOException {
        throw new UnsupportedOperationException("engine '" + name() + "' has no datagram channels");
    }

    /**
     * Opens a file for {@link OpKind#READ_FILE} and {@link OpKind#WRITE_FILE}, with the options of
     * {@link java.nio.channels.FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])} (none: read
     * only). Engines that support the file kinds override this.
     *
     * @throws UnsupportedOperationException if this engine has no file channels (the default)
     * @throws IOException                   if the file cannot be opened
     */
    default EngineChannel openFile(Path path, Set<? extends OpenOption> options) throws IOException {
        throw new UnsupportedOperationException("engine '" + name() + "' has no file channels");
    }

    /**
     * Runs {@link OpKind#READ_FILE} and {@link OpKind#WRITE_FILE} on a {@link FileChannel} the user opened and
     * keeps owning: {@link EngineChannel#close()} of the returned channel must not close {@code file}, and the
     * channel counts as closed once {@code file} is closed. {@code options} says what the core found out about
     * {@code file} and what the user asked: {@link java.nio.file.StandardOpenOption#READ} if it may be read,
     * {@link java.nio.file.StandardOpenOption#WRITE} if it may be written, and
     * {@link dev.proactor.ProactorOpenOption#DIRECT} for direct I/O (set on the open file, which {@code file}
     * shares). Engines that support the file kinds override this.
     *
     * @throws UnsupportedOperationException if this engine has no file channels (the default), or no direct I/O
     *                                       when asked for it
     * @throws IllegalArgumentException      if the engine needs the descriptor and {@code file} is not the JDK's
     *                                       own implementation
     * @throws IOException                   if the engine cannot use the file (e.g. it was closed meanwhile)
     */
    default EngineChannel wrapFile(FileChannel file, Set<? extends OpenOption> options) throws IOException {
        throw new UnsupportedOperationException("engine '" + name() + "' has no file channels");
    }

    /**
     * Called once when the demultiplexor closes, after every channel was closed (and its pending requests
     * cancelled) and the leaders stopped, before a last {@link WaitStrategy#waitFor(long) waitFor(0)} collects
     * what is left: returns once no request is still running on a thread of the engine, so that last wait
     * finds every remaining completion. The default does nothing: engines whose I/O runs only inside
     * {@code start} and the leader's wait have nothing to wait for.
     *
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    default void quiesce() throws InterruptedException {
        // Nothing runs outside start() and the leader's wait.
    }

    /**
     * Handler work of this engine's demultiplexor was handed to threads that are not its own (an executor's), and
     * {@link #offloadEnded()} follows when that work ends (see {@code Demultiplexor.beginOffload()}). While such
     * work is outstanding, an engine whose foreign threads hand their requests to a blocked leader may hold the
     * wake-up back until the last of it ends, so one wake-up submits what a batch of tasks started; it must still
     * submit every request within a short bound of its own, since offloaded work may block or never end. Any
     * thread; the default does nothing (an engine whose foreign threads start requests themselves has nothing to
     * gather).
     */
    default void offloadBegun() {
        // Foreign threads start their requests themselves.
    }

    /** The work announced by one {@link #offloadBegun()} ended. Any thread; the default does nothing. */
    default void offloadEnded() {
        // See offloadBegun().
    }

    /**
     * Starts a request. On {@link StartResult#COMPLETED} the result (bytes, error, accepted handle) is recorded
     * in the request and the caller posts it. Errors of the I/O itself are recorded, not thrown. Anything thrown
     * anyway ({@link Error}s included, e.g. an {@link OutOfMemoryError} for a buffer) ends that request only: the
     * processor cancels it in case it was parked, fails it with the throwable and frees its in-flight slot.
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
