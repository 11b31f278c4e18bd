/**
 * The proactor's user API: a service implements {@link dev.proactor.AsynchHandler}, starts operations on an
 * {@link dev.proactor.AsynchChannel} bound to a {@link dev.proactor.Demultiplexor}, and is called back with the
 * completed operation ({@link dev.proactor.OpRead}, {@link dev.proactor.OpWrite}, ...).
 *
 * <p>Inside: the {@code Dispatcher} (leader/follower, completion queue; its timers in {@code DispatcherTimers},
 * its sleeping threads in {@code Followers}, its leading ones in {@code Leadership}, its callbacks run by
 * {@code CallbackChain}) and one or two {@code Processor}s each driving an engine of the {@link dev.proactor.spi}
 * package (its starts and cancels in {@code EngineStarter}, its in-flight limit and deferred operations in
 * {@code DeferredStarts}); the demultiplexor's {@code ChannelRouting} picks the processor that serves each channel
 * and registers the channel with its engine, its {@code PoolThreads} start and run the pool, and
 * {@code DemultiplexorClosing} is its close sequence. Behind the {@code AsynchChannel} facade,
 * {@code ChannelOpening} opens channels, {@code OperationArguments} checks and {@code OperationStarter} starts their
 * operations, and {@code ChannelClosing} cancels and closes them. Those classes are package private: only the API
 * types are public.
 */
package dev.proactor;
