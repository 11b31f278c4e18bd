package dev.proactor.jni.uring;

import dev.proactor.jni.IoUring;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineProvider;
import dev.proactor.spi.EngineSettings;
import java.io.IOException;
import java.util.List;

/**
 * Provider of the native engine {@code io_uring}. Wait strategies: {@code io_uring} (block in
 * {@code io_uring_enter}, the default) and {@code busy-poll} (spin on a non-blocking enter). Available when
 * {@link IoUring#isAvailable()}; otherwise {@link #unavailabilityCause()} says why (kernel too old, the
 * {@code io_uring_disabled} sysctl, seccomp, {@code RLIMIT_MEMLOCK}) and the core falls back to the emulated engine,
 * or fails with that cause when strict.
 */
public final class IoUringEngineProvider implements EngineProvider {

    /** The engine name. */
    public static final String NAME = "io_uring";

    static final List<String> WAIT_STRATEGIES = List.of(IoUringWaitStrategy.NAME, IoUringBusyPollWaitStrategy.NAME);

    /** Called by {@link java.util.ServiceLoader}; does no I/O and loads nothing. */
    public IoUringEngineProvider() {
        // The native library is loaded and the kernel probed on the first availability check, not here.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return IoUring.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
        return IoUring.unavailabilityCause();
    }

    @Override
    public List<String> waitStrategies() {
        return WAIT_STRATEGIES;
    }

    /**
     * @throws UnsatisfiedLinkError     if the engine is unavailable (check {@link #isAvailable()} first)
     * @throws IllegalArgumentException if a {@code proactor.uring.*} property is malformed
     * @throws IOException              if the ring cannot be created
     */
    @Override
    public Engine create(EngineSettings settings) throws IOException {
        IoUring.ensureAvailability();
        return new IoUringEngine(settings.waitStrategy(), IoUringFeatures.fromProperties(settings.soleLeader()),
                settings);
    }
}
