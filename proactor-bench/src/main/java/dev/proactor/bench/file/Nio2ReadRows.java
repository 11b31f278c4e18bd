package dev.proactor.bench.file;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.ProactorOpenOption;
import dev.proactor.nio2.ProactorFiles;
import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The rows of the JDK's file channel types, on the JDK's implementation and on ours ({@link ProactorFiles}, engine
 * from the {@code proactor.*} system properties as for users): {@link AsynchronousFileChannel} at a depth (as a
 * program opens it: the JDK's on its default thread pool, ours on a demultiplexor whose pool threads run the
 * handlers), and {@link FileChannel} read by virtual threads ({@link VirtualThreadReadRow}). {@code O_DIRECT}: the
 * JDK's {@code ExtendedOpenOption.DIRECT}, ours {@link ProactorOpenOption#DIRECT} where the file engine has it
 * ({@link DirectMode#AUTO} falls back to buffered where it has not).
 */
final class Nio2ReadRows {

    private Nio2ReadRows() {
    }

    /** What ran, with its measurement. */
    record Outcome(ReadLoop.Measurement measurement, boolean direct, String engine) {
    }

    /** {@code depth} reads in flight on an {@link AsynchronousFileChannel}, completion handlers starting the next. */
    static Outcome asynchronous(boolean jdk, Path path, long size, Workload workload, int depth, DirectMode mode,
                                double warmup, double seconds) throws IOException, InterruptedException {
        if (jdk) {
            boolean direct = mode != DirectMode.OFF;
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(path, options(direct, jdkDirect()))) {
                return new Outcome(new AfcLoop(ch, workload, depth, size).run(warmup, seconds), direct, "jdk");
            }
        }
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.fromSystemProperties()).start()) {
            boolean direct = mode != DirectMode.OFF;
            if (direct) {
                try {
                    ProactorFiles.openAsynchronous(demux, path, options(true, ProactorOpenOption.DIRECT)).close();
                } catch (UnsupportedOperationException e) {
                    if (mode == DirectMode.ON) {
                        throw e;
                    }
                    direct = false; // AUTO: this file engine has no O_DIRECT
                }
            }
            try (AsynchronousFileChannel ch = ProactorFiles.openAsynchronous(demux, path,
                    options(direct, ProactorOpenOption.DIRECT))) {
                ReadLoop.Measurement m = new AfcLoop(ch, workload, depth, size).run(warmup, seconds);
                return new Outcome(m, direct, demux.getFileEngineName());
            }
        }
    }

    /** {@code threads} virtual threads blocking in {@link FileChannel#read(java.nio.ByteBuffer, long)}. */
    static Outcome virtualThreads(boolean jdk, Path path, long size, Workload workload, int threads, DirectMode mode,
                                  double warmup, double seconds) throws IOException, InterruptedException {
        VirtualThreadReadRow row = new VirtualThreadReadRow(workload, threads, size);
        if (jdk) {
            boolean direct = mode != DirectMode.OFF;
            try (FileChannel ch = FileChannel.open(path, options(direct, jdkDirect()))) {
                return new Outcome(row.measure(ch, warmup, seconds), direct, "jdk");
            }
        }
        try (Demultiplexor demux = Demultiplexor.open(ProactorConfig.fromSystemProperties()).start()) {
            boolean direct = mode != DirectMode.OFF;
            if (direct) {
                try {
                    ProactorFiles.open(demux, path, options(true, ProactorOpenOption.DIRECT)).close();
                } catch (UnsupportedOperationException e) {
                    if (mode == DirectMode.ON) {
                        throw e;
                    }
                    direct = false; // AUTO: this file engine has no O_DIRECT
                }
            }
            try (FileChannel ch = ProactorFiles.open(demux, path, options(direct, ProactorOpenOption.DIRECT))) {
                return new Outcome(row.measure(ch, warmup, seconds), direct, demux.getFileEngineName());
            }
        }
    }

    private static OpenOption[] options(boolean direct, OpenOption directOption) {
        return direct ? new OpenOption[] {StandardOpenOption.READ, directOption}
                : new OpenOption[] {StandardOpenOption.READ};
    }

    private static OpenOption jdkDirect() {
        return JdkDirectOption.get();
    }

    /** The read loop on an {@link AsynchronousFileChannel}: nothing allocated per read on the handler path. */
    private static final class AfcLoop extends ReadLoop implements CompletionHandler<Integer, ReadLoop.Slot> {
        private final AsynchronousFileChannel channel;

        AfcLoop(AsynchronousFileChannel channel, Workload workload, int depth, long size) {
            super(workload, depth, size);
            this.channel = channel;
        }

        @Override
        void issue(Slot slot) {
            channel.read(slot.buffer, slot.position, slot, this);
        }

        @Override
        public void completed(Integer n, Slot slot) {
            completed(slot, n, null);
        }

        @Override
        public void failed(Throwable error, Slot slot) {
            completed(slot, 0, error);
        }
    }
}
