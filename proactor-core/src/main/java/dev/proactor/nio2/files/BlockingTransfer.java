package dev.proactor.nio2.files;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * One read or write a thread blocks on: the thread starts it in a lane and {@link #await() parks} until the lane's
 * completion {@link #laneDone unparks} it. {@link LockSupport#park} is what frees a virtual thread's carrier (JDK
 * 21+), and no monitor is held while parked, so waiting pins nothing. Made by the waiting thread, used once.
 */
final class BlockingTransfer extends LaneTransfer {

    private final Thread waiter = Thread.currentThread();
    // Written before done; read after it (volatile).
    private long bytes;
    private Throwable error;
    private volatile boolean done;

    @Override
    void laneDone(long n, Throwable e) {
        bytes = n;
        error = e;
        done = true;
        LockSupport.unpark(waiter);
    }

    /**
     * Parks until the operation completed, whatever interrupts come meanwhile: the operation owns the buffer until
     * then, so the thread must not leave earlier (an interrupt has closed the channel, and a closed channel
     * completes its operations promptly). The interrupt status is cleared while parking, so parking blocks instead
     * of returning at once, and set again before returning if an interrupt came.
     *
     * @return bytes moved: -1 at end of file for a read; for a write that failed after writing some bytes, those
     *         (as {@code write(2)} returns a short count, and the error comes again on the next call if it lasts)
     * @throws IOException the operation's error when it moved nothing, as is, or wrapped if it was another checked
     *                     exception or the engine's {@link IllegalArgumentException} for an {@code O_DIRECT}
     *                     misalignment
     */
    long await() throws IOException {
        boolean interrupted = false;
        while (!done) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable e = error;
        if (e == null || bytes > 0) {
            return bytes;
        }
        if (e instanceof IOException io) {
            throw io;
        }
        if (e instanceof IllegalArgumentException misaligned) {
            // Checked at the call are position and buffer; what the engine refuses beyond that is the O_DIRECT
            // alignment, which FileChannel reports as an I/O error (the JDK's says "not a multiple of the block
            // size").
            throw new IOException(misaligned.getMessage(), misaligned);
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        throw new IOException(e);
    }
}
