package dev.proactor;

import dev.proactor.internal.ChannelCore;
import dev.proactor.internal.ChannelOpening;
import dev.proactor.internal.DemultiplexorCore;
import dev.proactor.internal.OperationStarter;
import dev.proactor.spi.OpKind;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.InterruptedByTimeoutException;
import java.nio.channels.SelectableChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A socket, datagram socket or file bound to one {@link Demultiplexor} and one {@link AsynchHandler}, on which
 * proactive operations are started: each call returns at once and the handler is called when the operation has
 * completed.
 *
 * <p><b>Kinds of channel.</b> Stream sockets ({@link #openSocket}, {@link #openServer}, accepted connections, the
 * seed constructor with a {@code SocketChannel} or {@code ServerSocketChannel}): {@link #read(ByteBuffer) read},
 * {@link #write(ByteBuffer) write}, {@link #accept() accept}, {@link #connect(SocketAddress) connect} and
 * {@link #transmitFile transmitFile}. Datagram sockets ({@link #openDatagram}, the seed constructor with a
 * {@code DatagramChannel}): {@link #receive(ByteBuffer) receive} and {@link #send(ByteBuffer, SocketAddress)
 * send}. Files ({@link #openFile}, {@link #wrapFile}): {@link #read(ByteBuffer, long, Object) read} and
 * {@link #write(ByteBuffer, long, Object) write} at a position, and {@link #size()}. Starting an operation of
 * another kind, or one the engine running the channel does not support, throws
 * {@link UnsupportedOperationException} and starts nothing.
 *
 * <p><b>Ordering.</b> Several operations of one direction may be pending (input: read, accept, receive, file
 * read; output: write, connect, send, file write, transmit); they run one after another and complete in the
 * order they were started. A completion of one direction is dispatched only after the previous completion of
 * that direction has returned from its callback.
 *
 * <p><b>Errors.</b> Misuse that the caller can see at once (a null, read-only or full buffer, an array range out
 * of bounds, a negative position or count, an unresolved address, an operation of the wrong kind) throws
 * {@link IllegalArgumentException}, {@link NullPointerException}, {@link IndexOutOfBoundsException} or
 * {@link UnsupportedOperationException} from the starting call and starts nothing. Everything else, I/O errors
 * and operations on a closed channel included, is delivered to the handler as the operation's
 * {@link ChannelOp#getError() error}; every started operation completes exactly once.
 *
 * <p><b>Buffers.</b> Heap and direct buffers are both accepted by the emulated engine (for heap buffers the JDK
 * copies through a direct buffer); native engines document their own rule. The caller must not touch a buffer
 * while an operation on it is pending.
 *
 * <p><b>Files</b> run on the demultiplexor's file engine (see {@link ProactorConfig}: by default positional
 * {@code FileChannel} calls on a small pool of worker threads) unless the main engine runs files itself. A file
 * operation already running on a worker when the channel is cancelled or closed completes with its own result;
 * see {@link #close()}.
 *
 * <p><b>Threads.</b> All methods are thread-safe; none blocks on I/O except the opening of a channel and
 * {@link #size()}.
 */
public final class AsynchChannel implements Closeable {

    private final Demultiplexor demultiplexor;
    /** This channel's state (directions, processor, engine channel, closed flag), which the machinery owns. */
    final ChannelCore core;
    private final IoCounters inputStatistics;
    private final IoCounters outputStatistics;

    /**
     * Wraps a channel made by the caller (the seed's constructor): a {@code SocketChannel},
     * {@code ServerSocketChannel} or {@code DatagramChannel}, connected or not. The channel is switched to
     * non-blocking mode and owned by this object from now on ({@link #close()} closes it). Close this object,
     * not the JDK channel: a JDK channel closed directly is noticed within about a quarter of a second, and this
     * object is then closed as by {@link #close()} (pending operations complete with
     * {@link AsynchronousCloseException}; a warning is logged).
     *
     * @throws IllegalArgumentException if the demultiplexor's engine cannot work on this kind of channel
     * @throws IllegalStateException    if the demultiplexor is closed
     * @throws IOException              if the channel cannot be registered
     */
    public AsynchChannel(Demultiplexor demultiplexor, AsynchHandler handler, SelectableChannel channel)
            throws IOException {
        this(demultiplexor, handler, ChannelOpening.register(demultiplexor.core,
                Objects.requireNonNull(channel, "channel")));
        core.watch(channel);
    }

    AsynchChannel(Demultiplexor demultiplexor, AsynchHandler handler, ChannelCore.Registration registration) {
        this.demultiplexor = demultiplexor;
        this.core = new ChannelCore(this, demultiplexor.core, handler, registration, ChannelOp::newSlot, true);
        this.inputStatistics = new IoCounters(core.counters(true));
        this.outputStatistics = new IoCounters(core.counters(false));
    }

    /** The machinery of {@code demultiplexor}, or null (opening then fails after the argument checks). */
    private static DemultiplexorCore core(Demultiplexor demultiplexor) {
        return demultiplexor == null ? null : demultiplexor.core;
    }

    /**
     * Opens a listening socket bound to {@code local} (port 0 picks a free port) with {@code backlog} (0 for the JDK's
     * default of {@code ServerSocketChannel.bind}, 50, on every engine; the kernel caps a larger one at its limit);
     * {@link java.net.BindException} if the address is in use.
     */
    public static AsynchChannel openServer(Demultiplexor demultiplexor, AsynchHandler handler, SocketAddress local,
                                           int backlog) throws IOException {
        return new AsynchChannel(demultiplexor, handler,
                ChannelOpening.openServer(core(demultiplexor), handler, local, backlog));
    }

    /** Opens an unconnected stream socket; start {@link #connect(SocketAddress)} on it. */
    public static AsynchChannel openSocket(Demultiplexor demultiplexor, AsynchHandler handler) throws IOException {
        return new AsynchChannel(demultiplexor, handler,
                ChannelOpening.openSocket(core(demultiplexor), handler));
    }

    /**
     * Opens a datagram socket bound to {@code local} (port 0 picks a free port), not connected: give a target to
     * each {@link #send(ByteBuffer, SocketAddress, Object) send}. For a connected one, connect a JDK
     * {@code DatagramChannel} and wrap it with the seed constructor.
     *
     * @throws UnsupportedOperationException if no engine of the demultiplexor runs datagrams
     * @throws IllegalStateException         if the demultiplexor is closed
     * @throws java.net.BindException        if the address is in use
     */
    public static AsynchChannel openDatagram(Demultiplexor demultiplexor, AsynchHandler handler, SocketAddress local)
            throws IOException {
        return new AsynchChannel(demultiplexor, handler,
                ChannelOpening.openDatagram(core(demultiplexor), handler, local));
    }

    /**
     * Opens a file for {@link #read(ByteBuffer, long, Object)} and {@link #write(ByteBuffer, long, Object)} at
     * positions, with the options of {@link FileChannel#open(Path, OpenOption...)}: no option opens it for
     * reading only; e.g. {@code READ, WRITE, CREATE} for both.
     *
     * @throws UnsupportedOperationException if no engine of the demultiplexor runs files
     *                                       ({@code proactor.fileEngine=none} and an engine without files)
     * @throws IllegalStateException         if the demultiplexor is closed
     * @throws IOException                   if the file cannot be opened, e.g.
     *                                       {@link java.nio.file.NoSuchFileException}
     */
    public static AsynchChannel openFile(Demultiplexor demultiplexor, AsynchHandler handler, Path path,
                                         OpenOption... options) throws IOException {
        return new AsynchChannel(demultiplexor, handler,
                ChannelOpening.openFile(core(demultiplexor), handler, path, options));
    }

    /**
     * Runs {@link #read(ByteBuffer, long, Object)} and {@link #write(ByteBuffer, long, Object)} on {@code file},
     * a file channel the caller opened and keeps owning: closing this channel does not close {@code file}, and
     * once {@code file} is closed this channel's later operations complete with {@link ClosedChannelException}
     * (those already in the engine complete with their own results). What may be done follows how {@code file}
     * was opened: a write on a file opened for reading only completes with
     * {@link java.nio.channels.NonWritableChannelException}, a read on one opened for writing only with
     * {@link java.nio.channels.NonReadableChannelException}.
     *
     * <p>One channel runs the operations of one direction one after another (see the class description), so
     * reads that should reach the disk together are started on several channels wrapping the same
     * {@code file}: each costs a duplicate of the descriptor on the native engines, nothing on the thread-pool
     * file engine.
     *
     * <p>Options: {@link StandardOpenOption#READ} and {@link StandardOpenOption#WRITE} say how {@code file} was
     * opened; with neither, a zero-byte positional read and write find out (the JDK refuses them before any system
     * call; they mark the calling thread as blocked in {@code file}, so an interrupt then closes it).
     * {@link ProactorOpenOption#DIRECT} sets {@code O_DIRECT} on the open file, which {@code file} shares, so its
     * own reads and writes follow the direct-I/O rules too (see {@link ProactorOpenOption#DIRECT}).
     *
     * @throws IllegalArgumentException      if an option other than those is given, or a native engine is given a
     *                                       {@code FileChannel} that is not the JDK's own ({@code FileChannel.open},
     *                                       {@code RandomAccessFile.getChannel}, ...)
     * @throws UnsupportedOperationException if no engine of the demultiplexor runs files, or
     *                                       {@link ProactorOpenOption#DIRECT} is asked of one without direct I/O
     * @throws IllegalStateException         if the demultiplexor is closed
     * @throws ClosedChannelException        if {@code file} is closed
     * @throws IOException                   if the engine cannot use the file, e.g. a file system without direct
     *                                       I/O
     */
    public static AsynchChannel wrapFile(Demultiplexor demultiplexor, AsynchHandler handler, FileChannel file,
                                         OpenOption... options) throws IOException {
        return new AsynchChannel(demultiplexor, handler,
                ChannelOpening.wrapFile(core(demultiplexor), handler, file, options));
    }

    /** Reads into {@code dst}; see {@link #read(ByteBuffer[], int, int, Object)}. */
    public void read(ByteBuffer dst) {
        read(dst, null);
    }

    /** Reads into {@code dst} with an attachment returned by {@link Op#getAttachment()}. */
    public void read(ByteBuffer dst, Object attachment) {
        read(dst, 0, TimeUnit.NANOSECONDS, attachment);
    }

    /**
     * Reads into {@code dst}, or completes with {@link InterruptedByTimeoutException} if nothing was read within
     * {@code timeout} (counted from this call, time spent waiting behind earlier reads included; 0 means no
     * timeout). The timeout runs on the demultiplexor's timer queue, not on a thread of its own.
     *
     * <p><b>What a timed-out read leaves.</b> Unlike the JDK's asynchronous channels, which forbid further reads
     * after a read timed out, the channel stays fully usable: a read that times out has taken no byte from the
     * socket (if bytes arrive in the same instant, the read completes with them instead of the timeout), so the
     * next read gets every byte the peer sent. Only when the timeout fires first is the operation taken back
     * from the engine; a race the completion wins is dispatched as that completion. A read whose timeout fires
     * while it waits behind earlier reads is marked and never reaches the engine, but its callback still comes in
     * start order: after those earlier reads have completed.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative, or as {@link #read(ByteBuffer[], int, int,
     *                                  Object)}
     */
    public void read(ByteBuffer dst, long timeout, TimeUnit unit, Object attachment) {
        OperationStarter.read(core, dst, timeout, unit, attachment);
    }

    /** Scattering read into {@code dsts}. */
    public void read(ByteBuffer[] dsts) {
        read(dsts, 0, Objects.requireNonNull(dsts, "dsts").length, null);
    }

    /**
     * Scattering read into {@code dsts[offset .. offset+length)}: completes when at least one byte was read or
     * at end-of-stream. {@link IllegalArgumentException} if a buffer is read-only or none has space remaining,
     * {@link IndexOutOfBoundsException} if the range is outside the array.
     */
    public void read(ByteBuffer[] dsts, int offset, int length, Object attachment) {
        read(dsts, offset, length, 0, TimeUnit.NANOSECONDS, attachment);
    }

    /**
     * Scattering read with a timeout: as {@link #read(ByteBuffer[], int, int, Object)} (and its exceptions, plus
     * {@link IllegalArgumentException} for a negative {@code timeout}), completing with
     * {@link InterruptedByTimeoutException} if nothing was read within {@code timeout} (0 means none; see
     * {@link #read(ByteBuffer, long, TimeUnit, Object)} for what a timed-out read leaves).
     */
    public void read(ByteBuffer[] dsts, int offset, int length, long timeout, TimeUnit unit, Object attachment) {
        OperationStarter.read(core, dsts, offset, length, timeout, unit, attachment);
    }

    /** Writes all of {@code src}; see {@link #write(ByteBuffer[], int, int, Object)}. */
    public void write(ByteBuffer src) {
        write(src, null);
    }

    /** Writes all of {@code src} with an attachment. */
    public void write(ByteBuffer src, Object attachment) {
        write(src, 0, TimeUnit.NANOSECONDS, attachment);
    }

    /**
     * Writes all of {@code src}, or completes with {@link InterruptedByTimeoutException} if that did not finish
     * within {@code timeout} (from this call; 0 means none; negative: {@link IllegalArgumentException}). A timed-out
     * write may have written part of the buffer ({@link ChannelOp#getBytesCompleted()}, the buffer's position): the
     * peer has then seen part of a message, so a protocol usually closes the channel.
     */
    public void write(ByteBuffer src, long timeout, TimeUnit unit, Object attachment) {
        OperationStarter.write(core, src, timeout, unit, attachment);
    }

    /** Gathering write of all of {@code srcs}. */
    public void write(ByteBuffer[] srcs) {
        write(srcs, 0, Objects.requireNonNull(srcs, "srcs").length, null);
    }

    /**
     * Gathering write of every remaining byte of {@code srcs[offset .. offset+length)}: completes when all are
     * written (the engine continues partial writes) or on error ({@link IndexOutOfBoundsException} if the range is
     * outside the array).
     */
    public void write(ByteBuffer[] srcs, int offset, int length, Object attachment) {
        write(srcs, offset, length, 0, TimeUnit.NANOSECONDS, attachment);
    }

    /**
     * Gathering write with a timeout: as {@link #write(ByteBuffer[], int, int, Object)} (and its exceptions, plus
     * {@link IllegalArgumentException} for a negative {@code timeout}), completing with
     * {@link InterruptedByTimeoutException} if not all was written within {@code timeout} (0 means none; see
     * {@link #write(ByteBuffer, long, TimeUnit, Object)} for what a timed-out write leaves).
     */
    public void write(ByteBuffer[] srcs, int offset, int length, long timeout, TimeUnit unit, Object attachment) {
        OperationStarter.write(core, srcs, offset, length, timeout, unit, attachment);
    }

    /** Accepts one connection (on a listening channel). */
    public void accept() {
        accept(null);
    }

    /** Accepts one connection with an attachment. */
    public void accept(Object attachment) {
        accept(0, TimeUnit.NANOSECONDS, attachment);
    }

    /**
     * Accepts one connection, or completes with {@link InterruptedByTimeoutException} if none arrived within
     * {@code timeout} (0 means no timeout); the listener stays usable.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public void accept(long timeout, TimeUnit unit, Object attachment) {
        OperationStarter.accept(core, timeout, unit, attachment);
    }

    /** Connects to {@code remote}. */
    public void connect(SocketAddress remote) {
        connect(remote, null);
    }

    /**
     * Connects to {@code remote}.
     *
     * @throws IllegalArgumentException if {@code remote} is an unresolved {@link InetSocketAddress}
     */
    public void connect(SocketAddress remote, Object attachment) {
        connect(remote, 0, TimeUnit.NANOSECONDS, attachment);
    }

    /**
     * Connects to {@code remote}, or completes with {@link InterruptedByTimeoutException} if the connection was
     * not established within {@code timeout} (0 means no timeout). The socket is then in an undefined state
     * (the attempt may be half-way): close it.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative or {@code remote} is unresolved
     */
    public void connect(SocketAddress remote, long timeout, TimeUnit unit, Object attachment) {
        OperationStarter.connect(core, remote, timeout, unit, attachment);
    }

    /** Receives one datagram into {@code dst}; see {@link #receive(ByteBuffer, Object)}. */
    public void receive(ByteBuffer dst) {
        receive(dst, null);
    }

    /**
     * Receives one datagram into {@code dst} (datagram sockets): completes with {@link OpReceive} when a
     * datagram arrived, giving its sender. A datagram larger than the space remaining in {@code dst} is truncated
     * and the excess discarded, silently (see {@link OpReceive}). On a connected channel only datagrams from the
     * peer arrive.
     *
     * @throws IllegalArgumentException      if {@code dst} is read-only or has no space remaining
     * @throws UnsupportedOperationException if this is not a datagram channel
     */
    public void receive(ByteBuffer dst, Object attachment) {
        OperationStarter.receive(core, dst, attachment);
    }

    /** Sends {@code src} as one datagram; see {@link #send(ByteBuffer, SocketAddress, Object)}. */
    public void send(ByteBuffer src, SocketAddress target) {
        send(src, target, null);
    }

    /**
     * Sends every byte remaining in {@code src} as one datagram to {@code target}, or to the connected peer when
     * {@code target} is {@code null} (datagram sockets): completes with {@link OpSend} when the datagram was sent
     * whole. A {@code null} target on an unconnected channel completes with
     * {@link java.nio.channels.NotYetConnectedException}; a datagram too large for the protocol completes with an
     * {@link IOException}.
     *
     * @throws IllegalArgumentException      if {@code target} is an unresolved {@link InetSocketAddress}
     * @throws UnsupportedOperationException if this is not a datagram channel
     */
    public void send(ByteBuffer src, SocketAddress target, Object attachment) {
        OperationStarter.send(core, src, target, attachment);
    }

    /**
     * Reads from the file at {@code position} into {@code dst} (files): completes with {@link OpRead} of kind
     * {@link OpKind#READ_FILE} when at least one byte was read (possibly fewer than {@code dst} has room for,
     * like {@code pread}), or with {@link OpRead#isEndOfStream()} when {@code position} is at or after the end of
     * the file. The file's own position is not used or changed.
     *
     * @throws IllegalArgumentException      if {@code dst} is read-only or full, or {@code position} is negative
     * @throws UnsupportedOperationException if this is not a file channel
     */
    public void read(ByteBuffer dst, long position, Object attachment) {
        OperationStarter.readFile(core, dst, position, attachment);
    }

    /**
     * Writes every byte remaining in {@code src} to the file at {@code position} (files): completes with
     * {@link OpWrite} of kind {@link OpKind#WRITE_FILE} when all are written (the file grows as needed), or with
     * an error and the count written before it. The file's own position is not used or changed.
     *
     * @throws IllegalArgumentException      if {@code position} is negative
     * @throws UnsupportedOperationException if this is not a file channel
     */
    public void write(ByteBuffer src, long position, Object attachment) {
        OperationStarter.writeFile(core, src, position, attachment);
    }

    /**
     * Sends {@code header} (if not null), then {@code count} bytes of {@code file} from {@code position}, then
     * {@code trailer} (if not null) over this connected stream socket (the seed's TransmitFile), an output
     * operation like {@link #write(ByteBuffer)}: completes with {@link OpTransmit} when every byte has been sent,
     * or on error with the bytes sent before it. The file bytes go from the file to the socket without passing
     * through Java where the engine and JDK allow it ({@link FileChannel#transferTo}); otherwise they are copied
     * through a buffer of the engine. The file's own position is not used or changed, and the file stays open
     * and owned by the caller (it must not be closed while the transmission is pending).
     *
     * <p>If the file ends before {@code position + count}, the bytes that exist are sent and the operation
     * completes with {@link java.io.EOFException} (the trailer is not sent): pass {@code file.size() - position}
     * to send the rest of a file. A {@code count} of 0 sends only the header and trailer.
     *
     * @throws IllegalArgumentException      if {@code position} or {@code count} is negative or their sum
     *                                       overflows, or {@code header} and {@code trailer} are the same buffer
     * @throws UnsupportedOperationException if this is not a stream socket or its engine cannot transmit files
     */
    public void transmitFile(FileChannel file, long position, long count, ByteBuffer header, ByteBuffer trailer,
                             Object attachment) {
        OperationStarter.transmitFile(core, file, position, count, header, trailer, attachment);
    }

    /** The size of the file; {@link UnsupportedOperationException} if this is not a file channel. */
    public long size() throws IOException {
        return core.size();
    }

    /** The counters of the input direction (read, accept, receive, file read); see {@link IoCounters}. */
    public IoCounters getInputStatistics() {
        return inputStatistics;
    }

    /** The counters of the output direction (write, connect, send, file write, transmit); see {@link IoCounters}. */
    public IoCounters getOutputStatistics() {
        return outputStatistics;
    }

    /**
     * Whether an operation the engine completes while this channel's {@code read}, {@code write}, ... submits it
     * has its callback run on the calling thread before that call returns, instead of on a demultiplexor thread
     * (off by default). One started inside a callback of its direction is started, after that callback returned,
     * by the callback's thread, which runs its callback too if it completes at once, up to 16 in a row (then as
     * usual): a chain of operations that complete at start stays on one thread. One that waited for an in-flight
     * slot is dispatched as usual. Callbacks may then nest: only for callers that bound the nesting themselves, as
     * the NIO.2 provider does (the JDK's rule: at most 16 deep). Any thread; for operations submitted afterwards.
     *
     * @param on whether completions at start run on the starting thread
     */
    public void setCompletionsAtStart(boolean on) {
        core.setCompletionsAtStart(on);
    }

    /**
     * Whether an operation started inside a callback of this channel, which completes as the callback's thread
     * starts it, is dispatched by that thread right after the callback, up to 16 in a row (a listening socket's
     * accepts: up to 1 024; then it is started as usual and dispatched by the demultiplexor's threads). That covers both directions: an operation of the
     * callback's own direction waits until the callback has returned and is then started by its thread; one of
     * the other direction starts at once, and its completion is held for that thread until the callback returns
     * (so a callback must not wait for a completion of its own channel, which would never come). It is the part of
     * {@link #setCompletionsAtStart} that concerns the demultiplexor's own threads only, with no callback ever run
     * on a caller's thread.
     *
     * <p>Such a chain lets this channel's callbacks go ahead of other channels' waiting completions (by at most 16
     * per trip through the queue; a listener by a burst of queued connections, at most 1 024, as a selector loop
     * accepts until its backlog is empty): off by default for connected sockets and files, where fairness between channels
     * matters more; <b>on by default for listening and datagram sockets</b>, which serve many peers through one
     * channel and would otherwise get one connection's share (every accept of a queued connection waiting for a
     * trip through every other session's completions). Any thread; takes effect for operations started afterwards.
     *
     * @param on whether operations chained from callbacks are dispatched by the callback's thread
     */
    public void setChainedCallbacks(boolean on) {
        core.setChainedCallbacks(on);
    }

    /**
     * Whether a direction is free for its next operation as soon as the callback of the last one begins, instead of
     * when it returns (off by default). With it on, an operation started inside a callback, or waiting behind the
     * operation being dispatched, is started at once and may complete, and its callback run on another thread, while
     * the earlier callback still runs: the per-direction rule "never concurrently" becomes the caller's to keep. The
     * operation object passed to a callback is still that callback's until it returns.
     *
     * <p>For adapters that keep one operation per direction themselves and whose callbacks may wait for the next
     * one: the NIO.2 provider frees its direction before a program's handler runs, and a handler that waits
     * ({@code channel.read(buf).get()}) for a read whose bytes are there must see it complete, as the JDK's does,
     * not queue it behind the callback that waits. Any thread; takes effect for operations dispatched afterwards.
     *
     * @param on whether callbacks of a direction may overlap with the next operation of that direction
     */
    public void setOverlappingCallbacks(boolean on) {
        core.setOverlappingCallbacks(on);
    }

    /**
     * Declares that a thread will block until the next operation started on this channel's input direction
     * ({@code input}: read, accept, receive) or output direction (write, connect, send, transmit) completes. That
     * operation is then tried on the starting thread whatever the engine's hints say, and handed to the kernel
     * before the starting call returns if it must wait (see {@link dev.proactor.spi.IoRequest#awaited()}): a
     * thread waiting for it may be the last one that could have polled for it (the NIO.2 provider's futures, as
     * the JDK's channels try such an operation at once). Call it right before starting that operation, on the thread
     * that starts it; it applies to that operation only.
     *
     * @param input true for the input direction, false for the output direction
     */
    public void awaitNextOperation(boolean input) {
        core.awaitNextOperation(input);
    }

    /**
     * Cancels every pending operation of this channel: operations not yet finished complete with
     * {@link OperationCancelledException} (a write may have written some bytes first: see
     * {@link ChannelOp#getBytesCompleted()}); those that already finished complete with their result. The
     * channel stays open.
     */
    public void cancel() {
        core.cancel();
    }

    /**
     * Closes the channel: every pending operation completes exactly once, with
     * {@link AsynchronousCloseException} unless it had already finished; later operations complete with
     * {@link ClosedChannelException}. The descriptor is released by the engine once no thread uses it.
     * Idempotent.
     *
     * <p>Files: an operation waiting for a worker completes with {@link AsynchronousCloseException}; one already
     * running on a worker completes with its own result when its system call had finished, otherwise with the
     * JDK's {@link AsynchronousCloseException} or {@link ClosedChannelException} (a write that needs several
     * calls reports the bytes written before). {@link #cancel()} does not stop a running file operation: it
     * completes with its result.
     */
    @Override
    public void close() {
        core.close();
    }

    /**
     * Registers {@code listener} to run once when this channel is closed, however that happens ({@link #close()},
     * a failing callback, the demultiplexor closing, a wrapped JDK channel closed directly), on the thread that
     * closes it, after the pending operations were marked to complete with {@link AsynchronousCloseException}
     * (their callbacks may still be running or to come). Several listeners run in registration order. If the
     * channel is already closed the listener runs at once on the calling thread. For bookkeeping such as
     * connection counts (the toolkit's {@code Acceptor}); what a listener throws is logged and dropped.
     */
    public void whenClosed(Runnable listener) {
        core.whenClosed(listener);
    }

    /**
     * Sets a socket option and returns this channel, e.g. {@code TCP_NODELAY} so that small responses are not held
     * back by Nagle's algorithm waiting for the peer's delayed ACK. Throws {@link UnsupportedOperationException}
     * if the channel kind or the engine lacks the option, {@link ClosedChannelException} if closed.
     */
    public <T> AsynchChannel setOption(SocketOption<T> name, T value) throws IOException {
        core.setOption(name, value);
        return this;
    }

    /** Reads a socket option; throws as {@link #setOption}. */
    public <T> T getOption(SocketOption<T> name) throws IOException {
        return core.getOption(name);
    }

    /** Shuts the output side down (the peer reads end-of-stream); reads continue to work. */
    public void shutdownOutput() throws IOException {
        core.shutdownOutput();
    }

    /**
     * Shuts the input side down: pending and later reads see end-of-stream (as far as the engine's system call
     * reports it); writes continue to work. {@link UnsupportedOperationException} if this is not a stream socket,
     * {@link ClosedChannelException} if closed, another {@link IOException} if the system call fails.
     */
    public void shutdownInput() throws IOException {
        core.shutdownInput();
    }

    /** Whether {@link #close()} has not been called. */
    public boolean isOpen() {
        return core.isOpen();
    }

    /** The local address, or {@code null} if unbound or a file. */
    public SocketAddress getLocalAddress() throws IOException {
        return core.localAddress();
    }

    /** The remote address, or {@code null} if not connected or a file. */
    public SocketAddress getRemoteAddress() throws IOException {
        return core.remoteAddress();
    }

    /** The handler given when the channel was made. */
    public AsynchHandler getHandler() {
        return core.handler();
    }

    /** The demultiplexor the channel is bound to. */
    public Demultiplexor getDemultiplexor() {
        return demultiplexor;
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
