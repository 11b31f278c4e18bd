package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The peak number of OS threads of this process while a row is measured: {@code Threads:} of
 * {@code /proc/self/status} every 10 ms (the sampler's own thread included), and every 100 ms the number of
 * io_uring kernel workers ({@code iou-wrk-*} tasks, which the kernel adds to the process for buffered reads it
 * cannot finish at once). Zero where there is no {@code /proc}. One instance per measurement.
 */
final class ThreadSampler {

    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path TASKS = Path.of("/proc/self/task");

    private final Thread thread;
    private volatile boolean stop;
    private volatile int peakThreads;
    private volatile int peakIoWorkers;

    private ThreadSampler() {
        thread = new Thread(this::run, "file-bench-thread-sampler");
        thread.setDaemon(true);
    }

    /** A started sampler. */
    static ThreadSampler start() {
        ThreadSampler s = new ThreadSampler();
        s.sample(true);
        s.thread.start();
        return s;
    }

    private void run() {
        for (int tick = 1; !stop; tick++) {
            sample(tick % 10 == 0);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample(boolean workers) {
        peakThreads = Math.max(peakThreads, threads());
        if (workers) {
            peakIoWorkers = Math.max(peakIoWorkers, ioWorkers());
        }
    }

    /** The peak of OS threads so far. */
    int peakThreads() {
        return peakThreads;
    }

    /** The peak of io_uring kernel workers so far. */
    int peakIoWorkers() {
        return peakIoWorkers;
    }

    /** Stops sampling (after one last sample) and waits for the sampler. */
    void stop() throws InterruptedException {
        stop = true;
        thread.join();
        sample(true);
    }

    private static int threads() {
        try {
            for (String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring(8).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    private static int ioWorkers() {
        int n = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    if (Files.readString(t.resolve("comm"), StandardCharsets.US_ASCII).startsWith("iou-wrk")) {
                        n++;
                    }
                } catch (IOException e) {
                    // the task ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return n;
    }
}
