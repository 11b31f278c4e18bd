package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2WaitingHandlerConformanceTest;
import dev.proactor.conformance.EngineUnderTest;
import org.junit.jupiter.api.Tag;

/**
 * The NIO.2 contracts of handlers and callers that wait, on our provider on the io_uring engine with
 * {@code proactor.uring.multishotAccept=true} whatever the default: an accept handler that waits for the next accept
 * of its channel on a one-thread group must get the connection the armed multishot accept took into a CQE, with no
 * other thread left to reap it ({@link IoUringAwaitedMultishot}). Tagged {@code non-default} (the switch is off by
 * default); {@link IoUringMultishotAcceptTest} covers that start in the default run.
 */
@WithSystemProperty(name = IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, value = "true")
@EngineUnderTest(IoUringEngineProvider.NAME)
@Tag("non-default")
class IoUringMultishotAcceptNio2WaitingHandlerConformanceTest extends AbstractNio2WaitingHandlerConformanceTest {
}
