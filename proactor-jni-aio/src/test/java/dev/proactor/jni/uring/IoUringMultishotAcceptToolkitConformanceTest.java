package dev.proactor.jni.uring;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.ToolkitConformanceTest;
import org.junit.jupiter.api.Tag;

/**
 * The toolkit (Acceptor, Connector, ReadFully) on the io_uring engine with {@code proactor.uring.multishotAccept=true}
 * whatever the default: the Acceptor's accepts go through one armed multishot accept per listener, connections
 * arriving between accepts are held and handed out at start ({@link IoUringMultishotAccept}). Skipped, with the
 * cause, where the engine is unavailable; without multishot accept in the kernel it runs one accept per request.
 */
@WithSystemProperty(name = IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, value = "true")
@EngineUnderTest(IoUringEngineProvider.NAME)
@Tag("non-default")
class IoUringMultishotAcceptToolkitConformanceTest extends ToolkitConformanceTest {
}
