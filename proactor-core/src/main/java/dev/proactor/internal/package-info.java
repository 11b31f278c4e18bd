/**
 * The machinery behind the API of {@code dev.proactor}; not exported by the module, so engines (which see only
 * {@code dev.proactor.spi}), the NIO.2 provider, TLS and the toolkit cannot reach it.
 *
 * <p>State owners: {@link dev.proactor.internal.ChannelCore} (a channel's directions, processor, engine channel,
 * closed flag, close listener), {@link dev.proactor.internal.ChannelSlot} and
 * {@link dev.proactor.internal.TimerSlot} (an operation object's direction, use, timeout, abort reason, queue
 * links), {@link dev.proactor.internal.DemultiplexorCore} (processors, dispatcher, routing, pool, file engine,
 * life cycle). The public objects are views over them, made once per object: a use allocates nothing.
 *
 * <p>Inside: the {@code Dispatcher} (leader/follower, completion queue; its timers in {@code DispatcherTimers},
 * its sleeping threads in {@code Followers}, its leading ones in {@code Leadership}, its callbacks run by
 * {@code CallbackChain}) and one or two {@code Processor}s each driving an engine of the {@link dev.proactor.spi}
 * package (its starts and cancels in {@code EngineStarter}, its in-flight limit and deferred operations in
 * {@code DeferredStarts}); the demultiplexor's {@code ChannelRouting} picks the processor that serves each channel
 * and registers the channel with its engine, its {@code PoolThreads} start and run the pool, and
 * {@code DemultiplexorClosing} is its close sequence. {@code ChannelOpening} opens channels,
 * {@code OperationArguments} checks and {@code OperationStarter} starts their operations, and
 * {@code ChannelClosing} cancels and closes them, each on a {@code ChannelCore}'s state.
 */
package dev.proactor.internal;
