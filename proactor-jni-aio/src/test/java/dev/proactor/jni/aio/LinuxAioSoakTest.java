package dev.proactor.jni.aio;

import dev.proactor.conformance.AbstractSoakTest;
import dev.proactor.conformance.EngineUnderTest;

/**
 * The fault-injection soak on the Linux AIO engine (see {@link AbstractSoakTest}; {@code -Psoak} for the long one).
 * Skipped, with the cause, where the native library, epoll or Linux AIO is unavailable.
 */
@EngineUnderTest(LinuxAioEngineProvider.NAME)
class LinuxAioSoakTest extends AbstractSoakTest {
}
