package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ToolkitConformanceTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The toolkit (Acceptor, Connector, ReadFully) on the io_uring engine with {@code proactor.uring.multishotAccept=true}
 * whatever the default: the Acceptor's accepts go through one armed multishot accept per listener, connections
 * arriving between accepts are held and handed out at start ({@link IoUringMultishotAccept}). Skipped, with the
 * cause, where the engine is unavailable; without multishot accept in the kernel it runs one accept per request.
 */
@EngineUnderTest(IoUringEngineProvider.NAME)
@Tag("non-default")
class IoUringMultishotAcceptToolkitConformanceTest extends ToolkitConformanceTest {

    private static String before;

    @BeforeAll
    static void multishotAccept() {
        before = System.getProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
        System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, "true");
    }

    @AfterAll
    static void restore() {
        if (before == null) {
            System.clearProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
        } else {
            System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, before);
        }
    }
}
