package dev.proactor.jni.epoll;

import dev.proactor.conformance.DispatchRulesConformanceTest;
import dev.proactor.conformance.EngineUnderTest;

/** The dispatcher's rules on the epoll engine. */
@EngineUnderTest(EpollEngineProvider.NAME)
class EpollDispatchRulesConformanceTest extends DispatchRulesConformanceTest {
}
