package dev.proactor.nio;

import dev.proactor.conformance.AbstractAsynchronousFileChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The AsynchronousFileChannel contracts on the JDK's channel (the reference) and ours on the nio engine's thread-pool
 * file engine.
 */
@EngineUnderTest(NioEngineProvider.NAME)
class NioAsynchronousFileChannelConformanceTest extends AbstractAsynchronousFileChannelConformanceTest {
}
