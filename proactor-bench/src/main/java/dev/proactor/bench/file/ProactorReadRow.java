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
 */
final class ProactorReadRow extends ReadLoop implements AsynchHandler {

    private final Path path;
    private final DirectMode directMode;
    private AsynchChannel channel;

    ProactorReadRow(Path path, long fileSize, Workload workload, int depth, DirectMode directMode) {
        super(workload, depth, fileSize);
        this.path = path;
        this.directMode = directMode;
    }

    /**
     * Opens a demultiplexor from the system properties and the file, runs the row and closes both.
     *
     * @return the measurement, whether {@code O_DIRECT} was used, and the engine names
     * @throws UnsupportedOperationException when {@link DirectMode#ON} and the file engine has no direct I/O
     */
    Outcome measure(double warmupSeconds, double seconds) throws IOException, InterruptedException {
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.fromSystemProperties()).start()) {
            boolean direct = false;
            if (directMode != DirectMode.OFF) {
                try {
                    channel = AsynchChannel.openFile(demux, this, path, StandardOpenOption.READ,
                            ProactorOpenOption.DIRECT);
                    direct = true;
                } catch (UnsupportedOperationException e) {
                    if (directMode == DirectMode.ON) {
                        throw e;
                    }
                }
            }
            if (channel == null) {
                channel = AsynchChannel.openFile(demux, this, path, StandardOpenOption.READ);
            }
            try {
                Measurement m = run(warmupSeconds, seconds);
                return new Outcome(m, direct, demux.getEngineName(), demux.getFileEngineName());
            } finally {
                channel.close();
            }
        }
    }

    @Override
    void issue(Slot slot) {
        channel.read(slot.buffer, slot.position, slot);
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
