package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.AbstractDrainedReadTest;
import dev.proactor.conformance.PeerText;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The drained-read rule on the io_uring engine where reads are tried at start (by default, on a thread that may not
 * submit, as the test thread here): a read right after a
 * drain goes to the ring untried (see {@code IoUringDirection.drainedAtTurn}).
 */
class IoUringDrainedReadTest extends AbstractDrainedReadTest {

    @Override
    protected Engine openEngine() throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        IoUringEngine engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "drained-read-test"));
        if (!engine.triesAtStart()) {
            engine.close();
            assumeTrue(false, "reads are not tried at start in this configuration");
        }
        return engine;
    }

    @Override
    protected boolean reportsReadiness() {
        return false;
    }

    @Test
    void aReceiveAfterADrainPollsFirst() throws Exception {
        assumeTrue(IoUringFeatures.fromProperties(false).pollFirst(), "POLL_FIRST is off or the kernel lacks it");
        drainingReadOnReadiness("first", true);

        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(second);
        assertNotEquals(StartResult.COMPLETED, engine().start(secondRead), "untried after the drain");
        IoUringSqe sqe = ((IoUringChannel) channel()).input.sqe;
        assertEquals(IoUringNative.OP_RECV, sqe.opcode);
        assertEquals(IoUringNative.RECVSEND_POLL_FIRST, sqe.ioprio,
                "the receive would find nothing: the kernel arms its poll without trying");

        PeerText.send(peer(), "second");
        await(secondRead);
        assertNull(secondRead.error());
        assertEquals("second", PeerText.text(second));
    }
}
