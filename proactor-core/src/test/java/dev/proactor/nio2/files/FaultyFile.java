package dev.proactor.nio2.files;

import dev.proactor.conformance.DelegatingFileChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file that fails from a position on: positional reads and writes (what the thread-pool file engine's workers run)
 * at or after {@code failFrom} throw an {@link IOException}, and those that would cross it stop there (a short
 * transfer, as at the edge of a bad block), so a transfer moves some bytes and then fails on its next step.
 */
final class FaultyFile extends DelegatingFileChannel {

    private final long failFrom;

    private FaultyFile(FileChannel delegate, long failFrom) {
        super(delegate);
        this.failFrom = failFrom;
    }

    /** {@code path} opened for reading and writing, failing from {@code failFrom} on. */
    static FaultyFile open(Path path, long failFrom) throws IOException {
        return new FaultyFile(FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE), failFrom);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        int limit = dst.limit();
        dst.limit(dst.position() + allowed(dst, position));
        try {
            return super.read(dst, position);
        } finally {
            dst.limit(limit);
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        int limit = src.limit();
        src.limit(src.position() + allowed(src, position));
        try {
            return super.write(src, position);
        } finally {
            src.limit(limit);
        }
    }

    /** Bytes of {@code b} that may move at {@code position}; throws if none may. */
    private int allowed(ByteBuffer b, long position) throws IOException {
        if (position >= failFrom && b.hasRemaining()) {
            throw new IOException("injected failure at position " + position);
        }
        return (int) Math.min(b.remaining(), failFrom - position);
    }
}
