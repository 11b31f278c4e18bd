package dev.proactor.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code file-copy SRC DST}: an asynchronous file copy. */
@Command(name = "file-copy", mixinStandardHelpOptions = true,
        description = {"Copies SRC to DST with asynchronous positional reads and writes, --depth blocks in "
                + "flight. Reads SRC to its end (a /proc file that reports size 0 is copied too); blocks of "
                + "zeros become holes in DST, so a sparse SRC stays sparse.",
                "Prints 'copied N bytes in S s (R MiB/s) files=ENGINE'."})
final class FileCopyCommand implements Callable<Integer> {

    /** Largest --block: a bigger buffer per slot only costs memory, the kernel moves at most 2 GiB per call. */
    static final int MAX_BLOCK = 64 << 20;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC", description = "File to copy.")
    private Path source;

    @Parameters(index = "1", paramLabel = "DST", description = "File to create or overwrite.")
    private Path target;

    @Option(names = "--block", paramLabel = "B", defaultValue = "262144",
            description = "Bytes per read and write, 1 .. " + MAX_BLOCK + " (default: ${DEFAULT-VALUE}).")
    private int block;

    @Option(names = "--depth", paramLabel = "D", defaultValue = "4",
            description = "Blocks in flight, 1 .. 1024 (default: ${DEFAULT-VALUE}).")
    private int depth;

    @Override
    public Integer call() throws Exception {
        Ranges.check(spec, "--block", block, 1, MAX_BLOCK);
        Ranges.check(spec, "--depth", depth, 1, 1024);
        if (Files.isDirectory(source)) {
            throw new IllegalArgumentException(source + ": is a directory");
        }
        if (Files.exists(target) && Files.exists(source) && Files.isSameFile(source, target)) {
            throw new IllegalArgumentException("SRC and DST are the same file");
        }
        FileCopy.Result r = new FileCopy(source, target, block, depth).run();
        System.out.printf("copied %d bytes in %.3f s (%.1f MiB/s) files=%s%n", r.bytes(), r.seconds(),
                r.mibPerSecond(), r.fileEngine());
        return 0;
    }
}
