package dev.proactor.bench.harness;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The child processes alive right now, killed by a shutdown hook if the runner is interrupted. */
public final class ProcessRegistry {
    private final Set<Process> live = ConcurrentHashMap.newKeySet();

    /** Installs the shutdown hook. */
    public ProcessRegistry() {
        Runtime.getRuntime().addShutdownHook(new Thread(this::killAll, "matrix-cleanup"));
    }

    /**
     * Registers a started child process.
     *
     * @param p the process
     */
    public void add(Process p) {
        live.add(p);
    }

    /**
     * Forgets a child process that has ended or been stopped.
     *
     * @param p the process
     */
    public void remove(Process p) {
        live.remove(p);
    }

    private void killAll() {
        for (Process p : live) {
            p.destroyForcibly();
        }
    }
}
