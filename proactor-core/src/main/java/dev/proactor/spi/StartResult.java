package dev.proactor.spi;

/** What {@link Engine#start(IoRequest)} did with a request. */
public enum StartResult {
    /** The request finished at once (success or error recorded in it); the caller posts the completion. */
    COMPLETED,
    /** The request is in progress; it will come out of {@link WaitStrategy#nextCompleted()} or be cancelled. */
    PENDING,
    /** The engine cannot take the request now (a resource is full); the processor defers and retries it later. */
    DEFERRED
}
