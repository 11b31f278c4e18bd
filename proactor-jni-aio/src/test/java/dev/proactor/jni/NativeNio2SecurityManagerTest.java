package dev.proactor.jni;

import dev.proactor.conformance.AbstractNio2SecurityManagerTest;
import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.jni.aio.LinuxAioEngineProvider;
import dev.proactor.jni.epoll.EpollEngineProvider;
import dev.proactor.jni.uring.IoUringEngineProvider;

/** The JDK's permission checks on our provider over the native engines (the JDK's reference runs in the nio module). */
@EngineUnderTest({EpollEngineProvider.NAME, IoUringEngineProvider.NAME, LinuxAioEngineProvider.NAME})
class NativeNio2SecurityManagerTest extends AbstractNio2SecurityManagerTest {
}
