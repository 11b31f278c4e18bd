package dev.proactor.nio;

import dev.proactor.conformance.VirtualThreadFork;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link NioNio2FutureWaitConformanceTest} again on virtual threads, in a forked JDK 21+ with one carrier thread
 * (see {@link VirtualThreadFork}): the waiters of socket futures park and leave the carrier to other virtual
 * threads. The wait is the provider's, not the engine's, so one engine is enough. Skipped, with the reason, without
 * a JDK 21+.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
@Tag("forked")
class NioVirtualThreadSocketFuturesTest {

    @Test
    void socketFutureWaitersOnVirtualThreads() throws Exception {
        VirtualThreadFork.run(List.of(NioNio2FutureWaitConformanceTest.class),
                "virtualThreadsWaitingInSocketFuturesLeaveTheCarrierToOthers",
                "threadsWaitingInSocketFuturesParkHoldingNoMonitor");
    }
}
