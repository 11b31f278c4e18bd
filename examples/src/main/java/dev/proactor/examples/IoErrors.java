package dev.proactor.examples;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Says why an I/O operation failed in words a user reads. The JDK's {@link FileSystemException}s carry the
 * path as their message and the reason in their type or in {@link FileSystemException#getReason()}
 * ({@code error: /data/out} alone tells nothing); this puts both on one line.
 */
public final class IoErrors {

    private IoErrors() {
    }

    /** {@code path: reason} for file-system errors, the message (or the type when there is none) otherwise. */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException fs) {
            String path = fs.getOtherFile() == null ? fs.getFile() : fs.getFile() + " -> " + fs.getOtherFile();
            return path + ": " + reason(fs);
        }
        if (e.getMessage() == null) {
            return e.getClass().getSimpleName();
        }
        return e.getMessage();
    }

    private static String reason(FileSystemException fs) {
        if (fs.getReason() != null) {
            return fs.getReason(); // the OS's own words: "Read-only file system", "Is a directory", …
        }
        if (fs instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (fs instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (fs instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (fs instanceof NotDirectoryException) {
            return "not a directory";
        }
        return fs.getClass().getSimpleName();
    }
}
