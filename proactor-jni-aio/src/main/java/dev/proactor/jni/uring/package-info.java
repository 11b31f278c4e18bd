/**
 * The io_uring engine ({@code proactor.engine=io_uring}): every operation is a request in one io_uring per
 * engine, made with the raw {@code io_uring_setup}/{@code io_uring_enter}/{@code io_uring_register} system calls.
 *
 * <p><b>Rings.</b> The submission and completion rings are mapped once ({@code IoUringRing}); Java writes SQEs and
 * reads CQEs ({@code IoUringCompletionQueue}) through direct buffers, with acquire/release accesses on the indices
 * shared with the kernel.
 *
 * <p><b>Submission.</b> Any thread may start an operation (leader/follower: handlers run on many threads). It writes
 * the SQE under the ring's submission monitor. If the leader is blocked in {@code io_uring_enter} at that moment,
 * the starter submits at once (a submit-only enter); otherwise the SQE waits for the leader's next enter, which
 * submits everything written meanwhile and waits in the same call: one system call per batch. Because several
 * threads submit, the ring is made without {@code IORING_SETUP_SINGLE_ISSUER} and {@code DEFER_TASKRUN}, and with
 * {@code COOP_TASKRUN}, so that a completion never interrupts a running submitter (see {@code IoUringFeatures}).
 *
 * <p><b>One owner.</b> Under the core's owner leader ({@code proactor.leader=owner}, {@code EngineSettings.soleLeader})
 * one thread alone waits in the engine, so the ring is made {@code SINGLE_ISSUER | DEFER_TASKRUN} and disabled until
 * that thread's first wait enables it ({@code IoUringSubmission.claim}); only the owner submits and enters, every
 * other thread hands its SQEs to it, there is no submitter thread, and a descriptor closed by another thread is
 * closed by the owner once the kernel took its SQEs in ({@code RetiredDescriptors}).
 *
 * <p><b>Tried at start, or batched.</b> A stream read or write started by a handler of a turn that completed
 * several requests, where its SQE goes out with an enter that comes anyway (a thread of the demultiplexor's own,
 * no leader blocked: on a one-thread pool, every operation those handlers start), goes to the ring untried: the
 * batch shares one enter. Started anywhere else (after a lone completion, by a thread that may not submit, or
 * while a leader blocks) it is first tried on the socket with one non-blocking system call, because its SQE would
 * cost a system call or a hand-off of its own ({@code IoUringFeatures.TryFirst}, {@code IoUringTryFirst}).
 *
 * <p><b>Completion.</b> The user data of a request's SQE is a slot number ({@code IoUringSlots}), taken with its first
 * SQE and freed by the request's last CQE (a multishot request, a receive or an accept ({@code IoUringMultishot}),
 * has a slot of its own from its arming to its last CQE, and a request waiting for it has none); a request that goes
 * on (partial write, aborted accept, next piece of a transmission) writes its next SQE with the same slot from the
 * completion handler. The completion handler runs in the leader, under the channel's monitor (lock order: channel,
 * then ring). The leader's side (reaping, completion handling) is {@code IoUringReaper}; starting and cancelling,
 * on any thread, is {@code IoUringStarter}, which also writes the next SQE of a request that goes on. The starter
 * alone writes a request's SQEs: the operation classes ({@code IoUringOps} and one class per kind) only describe the
 * step's SQE as a value ({@code IoUringSqe}, one per direction, reused) or answer that the request finished at
 * start, and never call the starter.
 *
 * <p><b>Cancellation.</b> {@code cancel} ({@code IoUringStarter}) writes an {@code IORING_OP_ASYNC_CANCEL} for the
 * slot, submits it and returns false: the request always ends with its own CQE, so it completes exactly once
 * whichever of the two CQEs comes first. A result reached before the cancel is kept; an error ({@code ECANCELED})
 * or a continuation is replaced by the cancel's reason. A read waiting for its channel's multishot receive, or an
 * accept for its listener's multishot accept ({@code IoUringMultishot}), has no SQE of its own: its cancel ends it at
 * once (returns true), the multishot stays armed, and what it brings is held for the next request.
 *
 * <p><b>Sockets are blocking.</b> io_uring makes its own first attempt without blocking and then polls; with
 * {@code O_NONBLOCK} set, an attempt the kernel retries from its worker threads would fail with {@code EAGAIN}
 * instead (seen under load on a send), so the engine clears the flag on every socket it drives, once, and never sets
 * it again, not even for one call: the flags belong to the open file description, which duplicates share. An accept
 * tried at start polls first and accepts only if a connection is queued, on a socket no other channel of the
 * process accepts on ({@code IoUringListeners}).
 *
 * <p><b>Requests outlive their submitter.</b> The kernel ties a request to the thread that submitted it and ends
 * it with {@code ECANCELED} when that thread exits. Only threads that outlive the requests submit: the
 * demultiplexor's own threads and the engine's submitter thread; a user thread (one that calls {@code read} and
 * exits, a virtual thread's carrier, a user thread leading in {@code handleEvents}) only writes SQEs and hands them
 * on: to an own leader's running turn, to an own leader blocked in {@code io_uring_enter} through the doorbell
 * ({@code IoUringDoorbell}, an eventfd read kept in the ring), else to the submitter ({@code SqeHandOff.whoSubmits}).
 * While handler work offloaded to an executor is outstanding ({@code Engine.offloadBegun}), the leader's wait is
 * bounded ({@code IoUringWaitStrategy.OFFLOAD_WAIT_LIMIT_NANOS}) and a hand-off rings only if no other such work
 * ends after it: the last end rings once for the batch ({@code SqeHandOff.offloadEnded}).
 * The kernel runs a request's completion work on its submitting thread, so the leader submitting is also what
 * keeps completions from waking a second thread. A full submission queue is waited on, never a failed or lost
 * request (see {@code IoUringEngine}); on a single-issuer ring a thread other than the owner never waits for room,
 * its entries queue in order behind the full ring ({@code SqeBacklog}).
 *
 * <p><b>Wake-up.</b> An {@code IORING_OP_NOP}, handed on like any SQE: submitted by the interrupting thread if it
 * may submit, else by the leader (rung through the doorbell when it blocks) or the submitter (see
 * {@code IoUringInterruptStrategy} and {@code IoUringSubmission}).
 *
 * <p><b>Closing.</b> A channel's close waits until the kernel has taken in every SQE written before it (the kernel
 * resolves descriptors then; the SQ head says how far it got) and only then closes the descriptor, so no request
 * reaches a number reused by the process ({@code IoUringChannels.release}); requests in flight hold the kernel's
 * file. The engine's {@code quiesce} reaps until no request is left in the ring ({@code IoUringReaper}), for 30 s at
 * most; the memory of requests still in the ring when it is closed then (the close only starts their cancellation)
 * is kept for the life of the process ({@code IoUringLeftovers}).
 */
package dev.proactor.jni.uring;
