package dev.proactor.bench.server;

/**
 * A server cannot run on this machine or JVM (native transport missing, JVM too old...).
 * The server process exits with {@link #EXIT_CODE} so the matrix runner can skip it.
 */
public final class PrerequisiteException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Process exit code meaning "prerequisite missing, skip this server". */
    public static final int EXIT_CODE = 3; // not 2: that is a user error (a wrong command line)

    /**
     * Creates the exception.
     *
     * @param message what is missing
     */
    public PrerequisiteException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what is missing
     * @param cause   the underlying failure
     */
    public PrerequisiteException(String message, Throwable cause) {
        super(message, cause);
    }
}
