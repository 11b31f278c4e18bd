package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.LeaderMode;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.jni.IoUring;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Completion coalescing ({@code proactor.uring.batchWaitMicros}, {@code proactor.uring.batchWaitCompletions}): off
 * by default, used only on a single-issuer ring (the owner leader), and with it on, completions that come one at a
 * time, a timer and starts from another thread are still served (the wait gives up holding out for a batch).
 */
class IoUringCoalescingTest {

    private static final int GUARD_SECONDS = 20;

    @AfterEach
    void clearProperties() {
        System.clearProperty(IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY);
        System.clearProperty(IoUringFeatures.BATCH_WAIT_COMPLETIONS_PROPERTY);
    }

    @Test
    void offByDefaultAndOnlyOnARingWithOneIssuer() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        assertEquals(0, IoUringFeatures.fromProperties(true).batchWaitMicros(), "off by default");
        assertEquals(IoUringFeatures.BATCH_WAIT_COMPLETIONS_DEFAULT,
                IoUringFeatures.fromProperties(true).batchWaitCompletions());
        System.setProperty(IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY, "200");
        System.setProperty(IoUringFeatures.BATCH_WAIT_COMPLETIONS_PROPERTY, "64");
        assertEquals(0, IoUringFeatures.fromProperties(false).batchWaitMicros(),
                "a shared ring's waiter is woken by every arrival anyway: not used there");
        IoUringFeatures owned = IoUringFeatures.fromProperties(true);
        boolean kernelHasIt = IoUring.isMinTimeoutSupported() && IoUring.isDeferTaskrunSupported();
        assertEquals(kernelHasIt ? 200 : 0, owned.batchWaitMicros(), "on for the owner where the kernel has it");
        assertEquals(64, owned.batchWaitCompletions());
        assertTrue(owned.toString().contains(kernelHasIt ? "batchWait=64/200us" : "batchWait=off"), owned::toString);
    }

    @Test
    void malformedValuesAreRejectedWithTheAllowedRange() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        for (String bad : new String[] {"-1", "1000001", "soon"}) {
            System.setProperty(IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> IoUringFeatures.fromProperties(true));
            assertTrue(e.getMessage().contains(IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY)
                    && e.getMessage().contains("0..1000000"), e.getMessage());
        }
        System.clearProperty(IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY);
        for (String bad : new String[] {"0", "32769", "all"}) {
            System.setProperty(IoUringFeatures.BATCH_WAIT_COMPLETIONS_PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> IoUringFeatures.fromProperties(true));
            assertTrue(e.getMessage().contains("1..32768"), e.getMessage());
        }
    }

    /**
     * A bound far above the peer's patience (1 s against a read timeout of 500 ms): a ping-pong on one connection
     * never finds a quarter of a batch, so its waits do not hold out (they would, for the whole bound, on every
     * message: each read of the peer would time out).
     */
    @Test
    void aLonePingPongIsNotHeldOutForTheBound() throws Exception {
        coalesceOrSkip("1000000", "64");
        echoRounds(20, 500, false);
    }

    /**
     * An owner-led demultiplexor that may hold out 20 ms for 64 completions: a ping-pong on one connection brings
     * one completion at a time, so its waits are plain but for a probe every
     * {@link IoUringCoalescing#PROBE_EVERY_WAITS} waits, which ends by giving up on the batch, never by a batch (with
     * the minimum wait not passed to the kernel it would wait for ever); the echo goes round through two probes, a
     * timer shorter than the hold-out fires, and the first read is started by the test's thread (handed to the
     * owner).
     */
    @Test
    void loneCompletionsATimerAndForeignStartsAreServedWhileCoalescing() throws Exception {
        coalesceOrSkip("20000", "64");
        echoRounds(2 * IoUringCoalescing.PROBE_EVERY_WAITS + 64, GUARD_SECONDS * 1000, true);
    }

    /** Sets the coalescing properties; skips the test where io_uring or the kernel's minimum wait is missing. */
    private static void coalesceOrSkip(String micros, String completions) {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        System.setProperty(IoUringFeatures.BATCH_WAIT_MICROS_PROPERTY, micros);
        System.setProperty(IoUringFeatures.BATCH_WAIT_COMPLETIONS_PROPERTY, completions);
        assumeTrue(IoUringFeatures.fromProperties(true).batchWaitMicros() > 0, "the kernel lacks it (Linux 6.12+)");
    }

    /**
     * An owner-led demultiplexor (coalescing as the properties say) echoes {@code rounds} round trips of a peer whose
     * reads give up after {@code peerTimeoutMillis}; the first read is started by the test's thread (handed to the
     * owner); then, if asked, a timer of 1 ms must fire.
     */
    private static void echoRounds(int rounds, int peerTimeoutMillis, boolean timer) throws Exception {
        ProactorConfig config = ProactorConfig.builder().engine(IoUringEngineProvider.NAME).threads(1)
                .leader(LeaderMode.OWNER).strict(true).build();
        ByteBuffer buffer = ByteBuffer.allocateDirect(16);
        CompletableFuture<Void> connected = new CompletableFuture<>();
        CompletableFuture<Void> timerFired = new CompletableFuture<>();
        AsynchChannel[] channel = new AsynchChannel[1];
        AsynchHandler echo = new AsynchHandler() {
            @Override
            public void onReadCompleted(OpRead op) {
                if (!op.isSuccess() || op.isEndOfStream()) {
                    return; // the channel was closed, or the peer was (a failed read must not be echoed: the
                            // write would fail at once, and its callback read again, round and round)
                }
                buffer.flip();
                channel[0].write(buffer);
            }

            @Override
            public void onWriteCompleted(OpWrite op) {
                if (!op.isSuccess()) {
                    return; // the channel was closed
                }
                buffer.clear();
                channel[0].read(buffer);
            }

            @Override
            public void onConnectCompleted(OpConnect op) {
                connected.complete(null);
            }

            @Override
            public void onTimerCompleted(OpTimer op) {
                timerFired.complete(null);
            }
        };
        try (ServerSocket server = new ServerSocket(0);
             Demultiplexor demux = Demultiplexor.open(config).start();
             AsynchChannel ch = AsynchChannel.openSocket(demux, echo)) {
            channel[0] = ch;
            ch.connect(new InetSocketAddress("127.0.0.1", server.getLocalPort()));
            try (Socket peer = server.accept()) {
                connected.get(GUARD_SECONDS, TimeUnit.SECONDS);
                peer.setSoTimeout(peerTimeoutMillis);
                ch.read(buffer); // from this thread: handed to the owner
                OutputStream out = peer.getOutputStream();
                DataInputStream in = new DataInputStream(peer.getInputStream());
                for (int i = 0; i < rounds; i++) {
                    byte[] sent = {(byte) i, (byte) (i + 1), (byte) (i + 2)};
                    out.write(sent);
                    out.flush();
                    byte[] back = new byte[sent.length];
                    in.readFully(back);
                    assertArrayEquals(sent, back, "round " + i);
                }
                if (timer) {
                    demux.newTimer(echo).schedule(1, TimeUnit.MILLISECONDS);
                    timerFired.get(GUARD_SECONDS, TimeUnit.SECONDS);
                }
            }
        }
    }
}
