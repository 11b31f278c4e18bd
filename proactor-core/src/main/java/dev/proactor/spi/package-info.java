/**
 * The engine SPI: what an I/O engine implements to run under the proactor's leader/follower demultiplexor.
 *
 * <p>An {@link dev.proactor.spi.EngineProvider} is found with {@link java.util.ServiceLoader} and creates an
 * {@link dev.proactor.spi.Engine} (the seed's AIO_Provider), which supplies a
 * {@link dev.proactor.spi.WaitStrategy} and through it an {@link dev.proactor.spi.InterruptStrategy}. The core's
 * processor owns the requests ({@link dev.proactor.spi.IoRequest}): it hands a request to the engine with
 * {@code start}, the engine keeps it while it is pending, and gives it back completed through the wait
 * strategy or {@code cancel}. Engines never call handlers and never post completions themselves.
 *
 * <p>For memory an engine needs only during one transfer (a native block a heap buffer is copied through for one
 * system call), {@link dev.proactor.spi.Spares} keeps process-wide spares that are taken and given back around
 * the call, so channels keep none of their own.
 *
 * <p>Memory ordering: a request is handed between threads only through locks or queues with happens-before
 * edges (the engine's per-channel lock, the dispatcher lock), so its plain fields need no volatile access.
 */
package dev.proactor.spi;
