package dev.proactor.nio;

import dev.proactor.conformance.AbstractFileChannelConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The FileChannel contracts on the JDK's channel (the reference) and ours on the nio engine's thread-pool file engine.
 */
@EngineUnderTest(NioEngineProvider.NAME)
class NioFileChannelConformanceTest extends AbstractFileChannelConformanceTest {
}
