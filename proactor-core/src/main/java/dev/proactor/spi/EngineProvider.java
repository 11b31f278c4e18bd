package dev.proactor.spi;

import java.io.IOException;
import java.util.List;

/**
 * Factory of one kind of engine, found with {@link java.util.ServiceLoader}. Implementations must have a public
 * no-argument constructor that does no I/O and never throws: availability is reported by
 * {@link #isAvailable()} and {@link #unavailabilityCause()}.
 */
public interface EngineProvider {

    /** Name used in {@code proactor.engine}, e.g. {@code nio} or {@code epoll}. */
    String name();

    /** Whether engines can be created on this machine and JVM. */
    boolean isAvailable();

    /** Why {@link #isAvailable()} is false, or {@code null} when it is available. */
    Throwable unavailabilityCause();

    /** The wait strategies this engine offers, default first. */
    List<String> waitStrategies();

    /** Creates an engine. {@code settings.waitStrategy()} is one of {@link #waitStrategies()}. */
    Engine create(EngineSettings settings) throws IOException;
}
