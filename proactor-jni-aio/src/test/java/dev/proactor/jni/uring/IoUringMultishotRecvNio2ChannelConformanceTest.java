package dev.proactor.jni.uring;

import dev.proactor.conformance.AbstractNio2ChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;
import org.junit.jupiter.api.Tag;

/**
 * The NIO.2 channel contracts on our provider on the io_uring engine with {@code proactor.uring.multishotRecv=all}
 * whatever the default: every stream read that can goes through its channel's multishot receive, bytes arriving
 * between reads are held and taken at start ({@link IoUringMultishotRecv}), and a read a thread blocks for collects
 * the receive's completions itself ({@link IoUringAwaitedRead}). Tagged {@code non-default} (the switch is off by
 * default): {@code -Pfull-matrix} runs it. Skipped, with the cause, where the engine is unavailable.
 */
@WithSystemProperty(name = IoUringFeatures.MULTISHOT_RECV_PROPERTY, value = "all")
@EngineUnderTest(IoUringEngineProvider.NAME)
@Tag("non-default")
class IoUringMultishotRecvNio2ChannelConformanceTest extends AbstractNio2ChannelConformanceTest {
}
