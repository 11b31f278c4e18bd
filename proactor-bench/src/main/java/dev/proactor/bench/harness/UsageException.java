package dev.proactor.bench.harness;

/** A command line that cannot be understood; the message says what is wrong. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the command line
     */
    public UsageException(String message) {
        super(message);
    }
}
