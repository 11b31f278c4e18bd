package dev.proactor.jni.epoll;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The fault-injection soak on the epoll engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one).
 * Skipped, with the cause, where the native library or epoll is unavailable.
 */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollSoakTest extends AbstractSoakTest {
}
