package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractDrainedReadTest;
import dev.proactor.jni.NativeTestSupport;
import dev.proactor.spi.Engine;
import java.io.IOException;

/** The drained-read rule on the epoll engine (edge-triggered: see {@code EpollChannel.drainedAtPoll}). */
class EpollDrainedReadTest extends AbstractDrainedReadTest {

    @Override
    protected Engine openEngine() throws IOException {
        NativeTestSupport.assumeEpoll();
        return new EpollEngine(EpollWaitStrategy.NAME);
    }
}
