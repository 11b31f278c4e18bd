package dev.proactor;

import java.io.IOException;

/** The error of an operation ended by {@link AsynchChannel#cancel()} before it finished. */
public class OperationCancelledException extends IOException {

    private static final long serialVersionUID = 1L;

    public OperationCancelledException() {
        super("operation cancelled");
    }
}
