package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.AbstractDrainedReadTest;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineSettings;
import java.io.IOException;

/**
 * The drained-read rule on the io_uring engine where reads are tried at start (by default, on a thread that may not
 * submit, as the test thread here): a read right after a
 * drain goes to the ring untried (see {@code IoUringDirection.drainedAtReap}).
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
}
