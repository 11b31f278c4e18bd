package dev.proactor.jni;

import dev.proactor.conformance.Fifo;
import dev.proactor.conformance.VirtualThreadFork;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The file-channel contract tests on io_uring and Linux AIO again on virtual threads, in a forked JDK 21+ with one
 * carrier thread (see {@link VirtualThreadFork}), the no-pinning tests included (skipped there only where an engine
 * is unavailable, the FIFO one also where no FIFO can be made). Skipped, with the reason, without a JDK 21+.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
@Tag("forked")
class NativeVirtualThreadFilesTest {

    @Test
    void fileChannelContractsOnVirtualThreads() throws Exception {
        List<String> mustSucceed = new java.util.ArrayList<>();
        if (IoUring.isAvailable() && LinuxAio.isAvailable()) {
            mustSucceed.add("virtualReadersWaitingForTheEngineLeaveTheCarrierToOthers");
            if (Fifo.isAvailable()) {
                mustSucceed.add("virtualReadersWaitingOnAnEmptyFifoLeaveTheCarrierToOthers");
            }
        }
        VirtualThreadFork.run(List.of(
                Class.forName("dev.proactor.jni.uring.IoUringFileChannelConformanceTest"),
                Class.forName("dev.proactor.jni.uring.IoUringAsynchronousFileChannelConformanceTest"),
                Class.forName("dev.proactor.jni.aio.LinuxAioFileChannelConformanceTest"),
                Class.forName("dev.proactor.jni.aio.LinuxAioAsynchronousFileChannelConformanceTest")),
                mustSucceed.toArray(new String[0]));
    }
}
