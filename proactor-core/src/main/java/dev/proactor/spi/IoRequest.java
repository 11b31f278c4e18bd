package dev.proactor.spi;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The engine's view of one operation: what to do (kind, channel, buffers, address, position; for
 * {@link OpKind#TRANSMIT_FILE} also the file, count, header and trailer) and what happened (bytes, error, accepted
 * handle, peer address, file bytes). The core owns and reuses request objects; an engine must not
 * keep a reference to a request after it has returned it completed (from {@link Engine#start},
 * {@link Engine#cancel} or {@link WaitStrategy#nextCompleted()}).
 *
 * <p>Not thread-safe: a request belongs to exactly one party at a time (the core while it is prepared or
 * dispatched, the engine while it is pending); hand-offs go through the engine's and the core's locks.
 */
public final class IoRequest {

    private final Object owner;
    private final ByteBuffer[] single = new ByteBuffer[1];

    private OpKind kind;
    private EngineChannel channel;
    private ByteBuffer[] buffers;
    private int offset;
    private int length;
    private SocketAddress address;
    private long position;
    private FileChannel file;
    private long count;
    private ByteBuffer header;
    private ByteBuffer trailer;

    private long bytes;
    private long fileBytes;
    private Throwable error;
    private Object acceptedHandle;
    private SocketAddress peer;
    /** See {@link #awaited()}. */
    private boolean awaited;

    /** Scratch slot for the engine while the request is pending (e.g. a native iovec index). */
    private long engineScratch;

    /**
     * Creates a request for the core.
     *
     * @param owner the core's object this request belongs to (the user's operation); opaque to engines
     */
    public IoRequest(Object owner) {
        this.owner = owner;
    }

    /** The core's object this request belongs to. Engines must not use it. */
    public Object owner() {
        return owner;
    }

    /**
     * Prepares the request for a new operation, clearing every result. Core only.
     *
     * @return this request
     */
    public IoRequest prepare(OpKind kind, EngineChannel channel) {
        this.kind = kind;
        this.channel = channel;
        this.buffers = null;
        this.offset = 0;
        this.length = 0;
        this.address = null;
        this.position = 0;
        this.file = null;
        this.count = 0;
        this.header = null;
        this.trailer = null;
        this.bytes = 0;
        this.fileBytes = 0;
        this.error = null;
        this.acceptedHandle = null;
        this.peer = null;
        this.awaited = false;
        this.engineScratch = 0;
        return this;
    }

    /**
     * Marks the request as one a thread will block for until it completes (see {@link #awaited()}). Core only.
     *
     * @return this request
     */
    public IoRequest awaited(boolean on) {
        this.awaited = on;
        return this;
    }

    /**
     * Whether a thread will block until this request completes, possibly the last thread that could otherwise poll
     * for it (a handler waiting for the next read of its own channel on a one-thread pool). An engine then tries the
     * operation on the starting thread whatever its hints say (a socket drained by the last read, a batch to share
     * with other starts), and if the operation must wait, hands it to the kernel before {@code start} returns rather
     * than leaving it for a later batch: what can complete at once does, as the JDK's channels complete it.
     */
    public boolean awaited() {
        return awaited;
    }

    /** Sets one buffer (kept in a reused one-element array, so no allocation). Core only. */
    public IoRequest buffer(ByteBuffer buffer) {
        single[0] = buffer;
        return buffers(single, 0, 1);
    }

    /** Sets the buffers {@code buffers[offset .. offset+length)}. Core only. */
    public IoRequest buffers(ByteBuffer[] buffers, int offset, int length) {
        this.buffers = buffers;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /** Sets the remote or target address. Core only. */
    public IoRequest address(SocketAddress address) {
        this.address = address;
        return this;
    }

    /** Sets the file position. Core only. */
    public IoRequest position(long position) {
        this.position = position;
        return this;
    }

    /**
     * Sets what a {@link OpKind#TRANSMIT_FILE} sends: {@code header} (or null), then {@code count} bytes of
     * {@code file} from {@code position}, then {@code trailer} (or null). Core only.
     *
     * @return this request
     */
    public IoRequest transmit(FileChannel file, long position, long count, ByteBuffer header, ByteBuffer trailer) {
        this.file = file;
        this.position = position;
        this.count = count;
        this.header = header;
        this.trailer = trailer;
        return this;
    }

    /** Drops references to user objects once the operation has been dispatched. Core only. */
    public void clearReferences() {
        single[0] = null;
        buffers = null;
        address = null;
        file = null;
        header = null;
        trailer = null;
        acceptedHandle = null;
        peer = null;
        error = null;
        channel = null;
    }

    public OpKind kind() {
        return kind;
    }

    public EngineChannel channel() {
        return channel;
    }

    /** The buffer array; use with {@link #offset()} and {@link #length()}. */
    public ByteBuffer[] buffers() {
        return buffers;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** First buffer of the request. */
    public ByteBuffer firstBuffer() {
        return buffers[offset];
    }

    public SocketAddress address() {
        return address;
    }

    /** The file position of a file read, file write or transmit. */
    public long position() {
        return position;
    }

    /** The file a {@link OpKind#TRANSMIT_FILE} sends from, or null. */
    public FileChannel file() {
        return file;
    }

    /** How many file bytes a {@link OpKind#TRANSMIT_FILE} sends. */
    public long count() {
        return count;
    }

    /** The buffer a {@link OpKind#TRANSMIT_FILE} sends before the file, or null. */
    public ByteBuffer header() {
        return header;
    }

    /** The buffer a {@link OpKind#TRANSMIT_FILE} sends after the file, or null. */
    public ByteBuffer trailer() {
        return trailer;
    }

    /** File bytes a {@link OpKind#TRANSMIT_FILE} has sent so far (header and trailer bytes not counted). */
    public long fileBytes() {
        return fileBytes;
    }

    /** Records {@code n} more file bytes sent by a transmit: adds to {@link #fileBytes()} and {@link #bytes()}. */
    public void addFileBytes(long n) {
        fileBytes += n;
        bytes += n;
    }

    /** Bytes moved so far (or -1 for end-of-stream on a completed read). */
    public long bytes() {
        return bytes;
    }

    /** Adds to the bytes moved so far (partial writes). Engine only. */
    public void addBytes(long n) {
        bytes += n;
    }

    /** Records a successful completion of {@code n} bytes in total (-1 = end-of-stream). Engine only. */
    public void complete(long n) {
        bytes = n;
    }

    /** Records a failure; the bytes moved before it stay recorded. Engine and core. */
    public void fail(Throwable cause) {
        error = cause;
    }

    /** Records an accepted connection. Engine only. */
    public void completeAccept(Object handle, SocketAddress remote) {
        acceptedHandle = handle;
        peer = remote;
    }

    /** Records the peer of a received datagram or connected socket. Engine only. */
    public void peer(SocketAddress remote) {
        peer = remote;
    }

    public Throwable error() {
        return error;
    }

    public Object acceptedHandle() {
        return acceptedHandle;
    }

    /** Hands the accepted handle over (the request forgets it). Core only. */
    public Object takeAcceptedHandle() {
        Object h = acceptedHandle;
        acceptedHandle = null;
        return h;
    }

    public SocketAddress peer() {
        return peer;
    }

    public long engineScratch() {
        return engineScratch;
    }

    public void engineScratch(long value) {
        engineScratch = value;
    }

    /** Whether any of the buffers still has bytes remaining. */
    public boolean hasRemaining() {
        for (int i = offset, end = offset + length; i < end; i++) {
            if (buffers[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }
}
