package dev.proactor.bench.file;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.ProactorOpenOption;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One row on this project's proactor: the engine comes from the system properties exactly as for users
 * ({@code proactor.engine}, {@code proactor.fileEngine}, {@code proactor.fileThreads}, ...), the file is opened
 * with {@link AsynchChannel#openFile} and read with positional reads. Completions run on the demultiplexor's pool
 * threads, which start the slot's next read.
 *
 * <p><b>One channel per slot.</b> An {@link AsynchChannel} runs the operations of one direction one after another
 * (its ordering rule), so reads started together on one channel would still reach the engine one at a time. Each
 * slot therefore opens the file as its own channel, as a server with one channel per request does; the file is
 * opened {@code depth} times.
 */
final class ProactorReadRow extends ReadLoop implements AsynchHandler {

    private final Path path;
    private final DirectMode directMode;
    private final AsynchChannel[] channels;

    ProactorReadRow(Path path, long fileSize, Workload workload, int depth, DirectMode directMode) {
        super(workload, depth, fileSize);
        this.path = path;
        this.directMode = directMode;
        this.channels = new AsynchChannel[depth];
    }

    /**
     * Opens a demultiplexor from the system properties and the file, runs the row and closes both.
     *
     * @return the measurement, whether {@code O_DIRECT} was used, and the engine names
     * @throws UnsupportedOperationException when {@link DirectMode#ON} and the file engine has no direct I/O
     */
    Outcome measure(double warmupSeconds, double seconds) throws IOException, InterruptedException {
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.fromSystemProperties()).start()) {
            boolean direct = directMode != DirectMode.OFF;
            try {
                for (int i = 0; i < channels.length; i++) {
                    channels[i] = open(demux, direct);
                    if (channels[i] == null) {
                        direct = false; // the first open found no direct I/O (AUTO): all buffered
                        channels[i] = open(demux, false);
                    }
                }
                Measurement m = run(warmupSeconds, seconds);
                return new Outcome(m, direct, demux.getEngineName(), demux.getFileEngineName());
            } finally {
                for (AsynchChannel c : channels) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
        }
    }

    /** Opens one channel of the file; null when {@code direct} was asked in AUTO and the engine has none. */
    private AsynchChannel open(Demultiplexor demux, boolean direct) throws IOException {
        if (!direct) {
            return AsynchChannel.openFile(demux, this, path, StandardOpenOption.READ);
        }
        try {
            return AsynchChannel.openFile(demux, this, path, StandardOpenOption.READ, ProactorOpenOption.DIRECT);
        } catch (UnsupportedOperationException e) {
            if (directMode == DirectMode.ON) {
                throw e;
            }
            return null;
        }
    }

    @Override
    void issue(Slot slot) {
        channels[slot.index].read(slot.buffer, slot.position, slot);
    }

    @Override
    public void onReadCompleted(OpRead op) {
        Slot slot = (Slot) op.getAttachment();
        completed(slot, op.isSuccess() && !op.isEndOfStream() ? (int) op.getBytesCompleted() : -1,
                op.isSuccess() ? null : op.getError());
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        throw new IllegalStateException("the file benchmark never writes");
    }

    /** A measurement with what ran it. */
    record Outcome(Measurement measurement, boolean direct, String engine, String fileEngine) {
    }
}
