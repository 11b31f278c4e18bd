/**
 * Native Linux engines over one JNI library.
 *
 * <p>Only {@code dev.proactor.jni} (library loading, per-engine availability, errno mapping) is exported.
 * The raw bindings in {@code dev.proactor.jni.internal} take unchecked native addresses and are for this
 * module's engines only, as are the helpers the engines share ({@code dev.proactor.jni.engine}); the engines
 * themselves are reached through the core's SPI.
 */
module dev.proactor.jni {
    requires dev.proactor.core;
    requires org.slf4j;
    requires jdk.net;

    exports dev.proactor.jni;

    provides dev.proactor.spi.EngineProvider with dev.proactor.jni.epoll.EpollEngineProvider,
            dev.proactor.jni.aio.LinuxAioEngineProvider,
            dev.proactor.jni.uring.IoUringEngineProvider;
}
