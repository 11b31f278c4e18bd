package dev.proactor.nio2.files;

import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * Whether an open file has a position: a pipe, a FIFO, a socket or a terminal has none (a "stream"), so the JDK's
 * {@code FileChannel} reads and writes it at its own place in the stream ({@code read(2)}, {@code write(2)}) and
 * fails what needs a position ({@code position()}, positional reads and writes: {@code lseek(2)} and
 * {@code pread(2)} fail with {@code ESPIPE}, "Illegal seek"). The {@link ProactorFiles} channels find out once, when
 * they are opened, and behave the same.
 *
 * <p>Stateless.
 */
final class FilePositions {

    /** The JDK's message for {@code ESPIPE}. */
    private static final String ILLEGAL_SEEK = "Illegal seek";

    private FilePositions() {
    }

    /**
     * Whether {@code file} has no position: asks the JDK channel for it ({@code lseek(2)}), which fails for a
     * stream. Runs inside the JDK channel's own blocking section, so call it where no section of ours is open.
     *
     * @throws ClosedChannelException if {@code file} is closed, or an interrupt closed it meanwhile
     */
    static boolean isStream(FileChannel file) throws ClosedChannelException {
        try {
            file.position();
            return false;
        } catch (ClosedChannelException e) {
            throw e;
        } catch (IOException e) {
            return true; // ESPIPE: the only failure of lseek(SEEK_CUR) on an open descriptor
        }
    }

    /** What the JDK's channel throws for an operation that needs a position on a stream. */
    static IOException illegalSeek() {
        return new IOException(ILLEGAL_SEEK);
    }
}
