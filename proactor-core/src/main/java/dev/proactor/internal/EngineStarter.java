package dev.proactor.internal;

import dev.proactor.OpState;
import dev.proactor.spi.Engine;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.StartResult;

/**
 * Starts operations in one processor's engine and cancels them there: fails an operation marked aborted before it
 * reaches the engine, takes an in-flight slot for it or leaves it waiting in {@link DeferredStarts}, hands its
 * request to the engine and acts on the answer (completed: posted to the dispatcher, or handed back to the caller;
 * pending: the leader's wait is interrupted when it must see the new interest; deferred: back to the head of the
 * queue, retried by the leader soon).
 *
 * <p>Thread-safety: any thread, never with the dispatcher lock held (completions are posted, which takes it). No
 * state of its own; it reads the processor's leader (a volatile) to decide whether to interrupt its wait. Each use
 * of an operation completes once ({@link ChannelSlot#claimCompletion()}): a second report is logged and ignored.
 *
 * <p>Errors: whatever the engine's start throws, {@link Error}s included, ends that operation with it as its
 * error; it is not rethrown (see {@link #startRequest}).
 */
final class EngineStarter {

    private final Processor processor;
    private final String name;
    private final Engine engine;
    private final InterruptStrategy interrupt;
    private final Dispatcher dispatcher;
    private final boolean interruptOnStart;
    /** The in-flight limit and the operations waiting for a slot or for room in the engine. */
    final DeferredStarts deferred;

    /**
     * The starter of {@code processor}, named {@code name} in logs, that interrupts its leader's wait with
     * {@code interrupt} (after every start that parks when {@code interruptOnStart}) and lets at most
     * {@code maxInFlight} operations into {@code engine} at once ({@link Integer#MAX_VALUE}: no limit).
     */
    EngineStarter(Processor processor, String name, Engine engine, InterruptStrategy interrupt, Dispatcher dispatcher,
                  boolean interruptOnStart, int maxInFlight) {
        this.processor = processor;
        this.name = name;
        this.engine = engine;
        this.interrupt = interrupt;
        this.dispatcher = dispatcher;
        this.interruptOnStart = interruptOnStart;
        this.deferred = new DeferredStarts(this, maxInFlight, dispatcher.totals);
    }

    /**
     * Starts {@code op}, which just became the active operation of its direction: fails it at once if it is
     * marked aborted, else tries it in the engine, or defers it when the in-flight limit is reached. Any
     * thread; never with the dispatcher lock.
     */
    void start(ChannelSlot op) {
        if (op.abortReason != null) {
            failUnstarted(op);
            return;
        }
        if (deferred.tryTakeSlot()) {
            startInEngine(op);
            return;
        }
        deferred.deferForSlot(op);
    }

    /**
     * Starts {@code op} in the engine; the caller has accounted for its in-flight slot.
     *
     * @return false if the engine deferred it (it is back at the head of the deferred queue)
     */
    boolean startInEngine(ChannelSlot op) {
        if (op.abortReason != null) { // cancelled or closed while it waited for a slot
            // Its slot goes to a deferred operation, as when a request leaves the engine: one deferred while this
            // one held the slot found none free, and no completion may come to retry it.
            deferred.requestLeftEngine();
            failUnstarted(op);
            return true;
        }
        return settle(op, startRequest(op));
    }

    /**
     * As {@link #start}, except that an operation the engine completes during this call is handed back, its
     * completion claimed, for the caller to dispatch on its own thread ({@link CallbackChain#dispatchHandedBack}),
     * instead of being queued for the demultiplexor's threads. Only for a channel that asked for it
     * ({@link ChannelCore#setCompletionsAtStart}); an operation that is aborted, or that waits for an in-flight
     * slot, starts as with {@link #start}. Any thread; never with the dispatcher lock.
     *
     * @return the completed operation to dispatch now, or null if it was started (or completed) as usual
     */
    ChannelSlot startHandingBack(ChannelSlot op) {
        if (op.abortReason != null || deferred.limitsInFlight()) {
            start(op);
            return null;
        }
        StartResult result = startRequest(op);
        if (result != StartResult.COMPLETED) {
            settle(op, result);
            return null;
        }
        deferred.requestLeftEngine();
        if (!claim(op)) {
            return null;
        }
        op.state = op.request.error() == null ? OpState.RESULT_READY : OpState.START_ERROR;
        return op;
    }

    /** Hands {@code op}'s request to the engine; what the engine throws ends the request with it (COMPLETED). */
    private StartResult startRequest(ChannelSlot op) {
        op.state = OpState.STARTED;
        IoRequest request = op.request;
        try {
            return engine.start(request);
        } catch (Throwable e) {
            // An engine bug, an unexpected channel state or an Error (e.g. OutOfMemoryError for a buffer) must
            // still end the operation exactly once and free its slot: take it back from the engine in case it was
            // parked before the exception, then complete it with the exception as its error (not rethrown: the
            // caller may be a pool thread or a callback, and the operation reports it).
            failedStart(request, e);
            return StartResult.COMPLETED;
        }
    }

    /**
     * Acts on the engine's answer to a start.
     *
     * @return false if the engine deferred it (it is back at the head of the deferred queue)
     */
    private boolean settle(ChannelSlot op, StartResult result) {
        IoRequest request = op.request;
        switch (result) {
            case COMPLETED -> {
                deferred.requestLeftEngine();
                complete(op, request.error() == null ? OpState.RESULT_READY : OpState.START_ERROR);
            }
            case PENDING, PENDING_INTERRUPT -> {
                if (interruptOnStart || result == StartResult.PENDING_INTERRUPT) {
                    Thread l = processor.leader();
                    if (l != null && l != Thread.currentThread()) {
                        interrupt.interrupt(); // the leader's wait must take the new interest into account
                    }
                }
                // A cancel or close that ran between "became active" and "parked in the engine" found nothing
                // to cancel: its mark is seen here, after the engine holds the request, and acted on.
                Throwable abort = op.abortReason;
                if (abort != null && cancelInEngine(request, abort)) {
                    deferred.requestLeftEngine();
                    complete(op, OpState.RESULT_READY);
                }
            }
            case DEFERRED -> {
                deferred.deferredByEngine(op);
                if (processor.leader() != Thread.currentThread()) {
                    // Nothing may be in the engine to complete and trigger the retry: the leader retries after
                    // every wait while operations are deferred, and its waits are short then (see Processor.lead).
                    interrupt.interrupt();
                }
                return false;
            }
        }
        return true;
    }

    /** A start threw {@code e}: takes the request back from the engine if it was parked and fails it. */
    private void failedStart(IoRequest request, Throwable e) {
        if (e instanceof Error) {
            Dispatcher.LOG.error("{}: {} failed to start {}; the operation ends with it", name, engine.name(),
                    request.kind(), e);
        }
        try {
            engine.cancel(request, e);
        } catch (Throwable cancelFailure) {
            e.addSuppressed(cancelFailure);
        }
        request.fail(e);
    }

    /**
     * The engine's cancel of a request it holds. A cancel that throws (an engine bug, or an {@link Error}) ends the
     * request here with {@code reason}, the exception suppressed in it and logged, as if the cancel had taken it:
     * the operation must complete once and free its slot, and the exception must not end the caller's drain of the
     * deferred operations or its close half-way. Should the engine still report the request later, that second
     * completion is ignored ({@link ChannelSlot#claimCompletion()}).
     *
     * @return whether the caller completes the request now (see {@link Engine#cancel})
     */
    private boolean cancelInEngine(IoRequest request, Throwable reason) {
        try {
            return engine.cancel(request, reason);
        } catch (Throwable e) {
            Dispatcher.LOG.error("{}: {} failed to cancel {}; the operation ends with its cancel reason", name,
                    engine.name(), request.kind(), e);
            reason.addSuppressed(e);
            request.fail(reason);
            return true;
        }
    }

    /** Completes an operation that never reached the engine with its abort reason. */
    private void failUnstarted(ChannelSlot op) {
        op.request.fail(op.abortReason);
        complete(op, OpState.START_ERROR);
    }

    /** Posts the one completion of {@code op}'s current use (see {@link ChannelSlot#claimCompletion()}). */
    private void complete(ChannelSlot op, OpState state) {
        if (claim(op)) {
            dispatcher.postResult(op, state);
        }
    }

    /** Claims {@code op}'s one completion ({@link ChannelSlot#claimCompletion()}); logs a second one, dropped. */
    private boolean claim(ChannelSlot op) {
        if (op.claimCompletion()) {
            return true;
        }
        Dispatcher.LOG.error("{}: {} reported a completion twice; the second one is ignored", name, op);
        return false;
    }

    /**
     * Cancels the use of {@code op} that its direction marked with {@code reason}, if it is deferred or pending in
     * the engine: it then completes with that reason. An operation that has already completed is left alone (it
     * is dispatched with its result); one not started yet is failed by {@link #start}. If that use has ended
     * meanwhile, nothing is done. The checks below and the engine's cancel are not atomic with the use ending, so
     * the caller must hold the object back from reuse until this returns ({@link ChannelDirection.Marked#cancel}
     * does): a request the queue or the engine gives back here is then always that use's, never a later one's.
     * Any thread.
     */
    void cancel(ChannelSlot op, Throwable reason) {
        if (op.abortReason != reason) {
            return; // the marked use has been dispatched and recycled since
        }
        if (deferred.remove(op)) {
            failUnstarted(op);
            return;
        }
        if (op.state == OpState.STARTED && op.abortReason == reason && cancelInEngine(op.request, reason)) {
            deferred.requestLeftEngine();
            complete(op, OpState.RESULT_READY);
        }
    }
}
