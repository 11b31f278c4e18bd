package dev.proactor.nio;

import dev.proactor.conformance.Fifo;
import dev.proactor.conformance.VirtualThreadFork;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The file-channel contract tests of this module again on virtual threads, in a forked JDK 21+ with one carrier
 * thread (see {@link VirtualThreadFork}), the no-pinning tests included (the FIFO one where a FIFO can be made).
 * Skipped, with the reason, without a JDK 21+.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
@Tag("forked")
class NioVirtualThreadFilesTest {

    @Test
    void fileChannelContractsOnVirtualThreads() throws Exception {
        List<String> mustSucceed = new java.util.ArrayList<>(
                List.of("virtualReadersWaitingForTheEngineLeaveTheCarrierToOthers"));
        if (Fifo.isAvailable()) {
            mustSucceed.add("virtualReadersWaitingOnAnEmptyFifoLeaveTheCarrierToOthers");
        }
        VirtualThreadFork.run(List.of(NioFileChannelConformanceTest.class,
                NioAsynchronousFileChannelConformanceTest.class), mustSucceed.toArray(new String[0]));
    }
}
