package dev.proactor.jni.epoll;

import dev.proactor.jni.Epoll;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineProvider;
import dev.proactor.spi.EngineSettings;
import java.io.IOException;
import java.util.List;

/**
 * Provider of the native engine {@code epoll}. Wait strategies: {@code epoll} (block in epoll_wait, the
 * default) and {@code busy-poll} (spin on epoll_wait(0) for the lowest latency at the cost of a busy core).
 * Available when {@link Epoll#isAvailable()}; otherwise {@link #unavailabilityCause()} says why and the
 * core falls back to the emulated engine.
 */
public final class EpollEngineProvider implements EngineProvider {

    /** The engine name. */
    public static final String NAME = "epoll";

    static final List<String> WAIT_STRATEGIES = List.of(EpollWaitStrategy.NAME, EpollBusyPollWaitStrategy.NAME);

    /** Called by {@link java.util.ServiceLoader}; does no I/O and loads nothing. */
    public EpollEngineProvider() {
        // The native library is loaded on the first availability check, not here.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return Epoll.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
        return Epoll.unavailabilityCause();
    }

    @Override
    public List<String> waitStrategies() {
        return WAIT_STRATEGIES;
    }

    /**
     * @throws UnsatisfiedLinkError if the epoll engine is unavailable (check {@link #isAvailable()} first)
     */
    @Override
    public Engine create(EngineSettings settings) throws IOException {
        Epoll.ensureAvailability();
        return new EpollEngine(settings.waitStrategy());
    }
}
