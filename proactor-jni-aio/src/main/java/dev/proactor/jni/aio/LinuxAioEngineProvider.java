package dev.proactor.jni.aio;

import dev.proactor.jni.LinuxAio;
import dev.proactor.jni.epoll.EpollEngineProvider;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineProvider;
import dev.proactor.spi.EngineSettings;
import java.io.IOException;
import java.util.List;

/**
 * Provider of the native engine {@value #NAME}: Linux kernel AIO serves files, the epoll engine serves sockets and
 * datagrams, under one leader wait (see {@link LinuxAioEngine}). Its wait strategies are the epoll engine's
 * ({@code epoll}, the default, and {@code busy-poll}). Available when {@link LinuxAio#isAvailable()}; otherwise
 * {@link #unavailabilityCause()} says why ({@code aio-max-nr}, seccomp, ...) and the core falls back to the emulated
 * engine, or fails with {@code proactor.strict=true}.
 */
public final class LinuxAioEngineProvider implements EngineProvider {

    /** The engine name. */
    public static final String NAME = "linux-aio";

    private static final List<String> WAIT_STRATEGIES = new EpollEngineProvider().waitStrategies();

    /** Called by {@link java.util.ServiceLoader}; does no I/O and loads nothing. */
    public LinuxAioEngineProvider() {
        // The native library is loaded on the first availability check, not here.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return LinuxAio.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
        return LinuxAio.unavailabilityCause();
    }

    @Override
    public List<String> waitStrategies() {
        return WAIT_STRATEGIES;
    }

    /**
     * @throws UnsatisfiedLinkError if the engine is unavailable (check {@link #isAvailable()} first)
     * @throws IOException          if the epoll set or the AIO context cannot be created, e.g. {@code aio-max-nr}
     *                              is exhausted by other contexts since the probe (the message says so)
     */
    @Override
    public Engine create(EngineSettings settings) throws IOException {
        LinuxAio.ensureAvailability();
        return new LinuxAioEngine(settings.waitStrategy());
    }
}
