package dev.proactor.spi;

/**
 * What an {@link EngineProvider} is told when creating an engine.
 *
 * @param waitStrategy the wait strategy name, already checked against {@link EngineProvider#waitStrategies()}
 * @param name         a short name for threads and log lines, e.g. {@code proactor-1-primary}
 */
public record EngineSettings(String waitStrategy, String name) {
}
