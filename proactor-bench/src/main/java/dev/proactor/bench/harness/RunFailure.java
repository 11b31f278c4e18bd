package dev.proactor.bench.harness;

/** One measurement could not be taken; the message says why and where the log is. */
public final class RunFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the failure.
     *
     * @param message what went wrong
     */
    public RunFailure(String message) {
        super(message);
    }
}
