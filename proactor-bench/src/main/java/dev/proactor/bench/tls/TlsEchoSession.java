package dev.proactor.bench.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * One client session on its Netty event loop: after the handshake it keeps {@code window} blocks in flight,
 * sending the next block each time one has come back whole, and checks every echoed byte against
 * {@link EchoPattern}. With a window of 1 (ping-pong) it records each block's round trip, in microseconds.
 *
 * <p>Threads: every method but the accessors runs on the channel's event loop; the counters are volatile so
 * the measuring thread can read them while the session runs.
 */
final class TlsEchoSession extends ChannelInboundHandlerAdapter {
    private static final long MAX_LATENCY_US = 60_000_000L;

    private final int index;
    private final int block;
    private final int window;
    private final EchoPattern pattern;
    private final CompletableFuture<String> handshake = new CompletableFuture<>();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private final Histogram latencyUs = new Histogram(MAX_LATENCY_US, 3);
    private ChannelHandlerContext ctx;
    private long sent;
    private volatile long received;
    private volatile long reads;
    private volatile boolean recording;
    private boolean sending;
    private long[] sendTimes;
    private volatile Throwable failure;

    TlsEchoSession(int index, int block, int window, EchoPattern pattern) {
        this.index = index;
        this.block = block;
        this.window = window;
        this.pattern = pattern;
        this.sendTimes = new long[window];
    }

    /** Completes with the negotiated cipher suite, or exceptionally when the handshake or connect fails. */
    CompletableFuture<String> handshake() {
        return handshake;
    }

    /** Completes when every sent byte has come back after {@link #stop()}, or exceptionally on a failure. */
    CompletableFuture<Void> drained() {
        return drained;
    }

    /** Decrypted chunks the client's SslHandler passed up so far (any thread). */
    long reads() {
        return reads;
    }

    /** Echoed and verified bytes so far (any thread). */
    long received() {
        return received;
    }

    /** The first failure (wrong byte, closed connection, TLS error), or null. */
    Throwable failure() {
        return failure;
    }

    /** Round trips recorded while {@link #record(boolean)} was on; read it after {@link #drained()}. */
    Histogram latencyUs() {
        return latencyUs;
    }

    /** Turns latency recording on or off (any thread). */
    void record(boolean on) {
        recording = on;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    /** Fills the window (event loop). */
    void start() {
        sending = true;
        for (int i = 0; i < window; i++) {
            sendBlock();
        }
        ctx.flush();
    }

    /** Stops sending new blocks; {@link #drained()} completes once the blocks in flight are back (event loop). */
    void stop() {
        sending = false;
        checkDrained();
    }

    private void sendBlock() {
        ByteBuf buf = ctx.alloc().buffer(block);
        buf.writeBytes(pattern.bytes(), EchoPattern.start(sent), block);
        sendTimes[(int) ((sent / block) % window)] = System.nanoTime();
        sent += block;
        ctx.write(buf, ctx.voidPromise());
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent e) {
            if (e.isSuccess()) {
                handshake.complete(context.pipeline().get(SslHandler.class).engine().getSession().getCipherSuite());
            } else {
                fail(e.cause());
            }
        }
        context.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        reads++; // written by this event loop only
        try {
            long at = received;
            int n = buf.readableBytes();
            for (int i = 0; i < n; i++) {
                byte b = buf.getByte(buf.readerIndex() + i);
                if (b != EchoPattern.expected(at + i)) {
                    fail(new IllegalStateException("session " + index + ": echoed byte at offset " + (at + i)
                            + " is " + (b & 0xff) + ", expected " + (EchoPattern.expected(at + i) & 0xff)));
                    return;
                }
            }
            if (at + n > sent) {
                fail(new IllegalStateException("session " + index + ": " + (at + n) + " bytes echoed but only "
                        + sent + " sent"));
                return;
            }
            received = at + n;
            long blocksBefore = at / block;
            long blocksAfter = (at + n) / block;
            long now = System.nanoTime();
            for (long b = blocksBefore; b < blocksAfter; b++) {
                if (recording) {
                    long us = (now - sendTimes[(int) (b % window)]) / 1000;
                    latencyUs.recordValue(Math.min(us, MAX_LATENCY_US));
                }
                if (sending) {
                    sendBlock();
                }
            }
            if (blocksAfter > blocksBefore && sending) {
                context.flush();
            }
            checkDrained();
        } finally {
            buf.release();
        }
    }

    private void checkDrained() {
        if (!sending && received == sent) {
            drained.complete(null);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        if (drained.isDone()) { // closed by the client after the run
            context.fireChannelInactive();
            return;
        }
        fail(new IllegalStateException("session " + index + ": the server closed the connection after "
                + received + " of " + sent + " bytes"));
        context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        fail(cause);
        context.close();
    }

    /** Records the first failure and completes both futures with it (event loop). */
    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        sending = false;
        handshake.completeExceptionally(cause);
        drained.completeExceptionally(cause);
    }
}
