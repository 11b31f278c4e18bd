package dev.proactor.nio2.files;

import dev.proactor.conformance.VirtualThreadFork;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BlockedFileCallersTest} again on virtual threads, in a forked JDK 21+ with one carrier thread (see
 * {@link VirtualThreadFork}); there the no-pinning test runs and must pass. Skipped, with the reason, without a JDK
 * 21+.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
@Tag("forked")
class VirtualThreadFilesTest {

    @Test
    void blockedCallersOnVirtualThreads() throws Exception {
        VirtualThreadFork.run(List.of(BlockedFileCallersTest.class),
                "readersBlockedOnASlowSourceLeaveTheCarrierToOtherVirtualThreads");
    }
}
