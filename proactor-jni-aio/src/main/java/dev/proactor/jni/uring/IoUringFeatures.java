package dev.proactor.jni.uring;

import dev.proactor.jni.IoUring;

/**
 * The optional io_uring features an engine uses: what the kernel has (probed once by {@link IoUring}) and what
 * the properties leave on. Printed at debug level when an engine starts.
 *
 * <ul>
 *   <li>{@code proactor.uring.entries} (default 4096): submission queue entries (a power of two, 1..32768); the
 *       completion queue has four times as many, and with {@code IORING_FEAT_NODROP} (required) completions beyond
 *       it are kept by the kernel, never lost.
 *   <li>{@code proactor.uring.pollFirst} (default true): stream reads (and sends that found the socket full) go
 *       to the ring with {@code IORING_RECVSEND_POLL_FIRST} (Linux 5.19+). Off, or on an older kernel, the kernel
 *       first tries the socket and then arms a poll.
 *   <li>{@code proactor.uring.tryFirst} (default true): a stream read or write, whatever its buffers (one direct
 *       buffer, several, heap buffers through the copy block), is first tried by the starting thread with one
 *       non-blocking {@code recv}/{@code send} or {@code recvmsg}/{@code sendmsg} ({@code MSG_DONTWAIT});
 *       only what cannot be done at once goes to the ring. Data already buffered, and room in the socket's send
 *       buffer, are the common case under load, and then the operation completes at start with no round trip
 *       through the ring and the leader. Off: every operation is a ring request.
 * </ul>
 *
 * <p>Not used, and why: {@code IORING_SETUP_SINGLE_ISSUER} and {@code DEFER_TASKRUN} require that one thread
 * submits every request; under the leader/follower pool any thread starts operations and the leader changes from
 * turn to turn, so the ring is created without them (funnelling every start through one thread would cost a
 * hand-off and a wake-up per operation). {@code COOP_TASKRUN} would be allowed, but measured no gain (within the
 * noise at 1 000 echo sessions) while it lets a running submitter's completions wait for its next system call or
 * timer tick. Multishot accept and provided buffer rings are not implemented: the core's contract is one accept
 * and one caller-supplied buffer per operation.
 *
 * @param entries   submission queue entries
 * @param pollFirst whether stream reads poll first
 * @param tryFirst  whether stream reads and writes try the socket once at start
 */
record IoUringFeatures(int entries, boolean pollFirst, boolean tryFirst) {

    static final String ENTRIES_PROPERTY = "proactor.uring.entries";
    static final String POLL_FIRST_PROPERTY = "proactor.uring.pollFirst";
    static final String TRY_FIRST_PROPERTY = "proactor.uring.tryFirst";

    /**
     * The features from the system properties and the kernel's.
     *
     * @throws IllegalArgumentException naming the property and the allowed values when one is malformed
     */
    static IoUringFeatures fromProperties() {
        String entriesText = System.getProperty(ENTRIES_PROPERTY, "4096");
        int entries;
        try {
            entries = Integer.parseInt(entriesText.trim());
        } catch (NumberFormatException e) {
            entries = -1;
        }
        if (entries < 1 || entries > 32768 || Integer.bitCount(entries) != 1) {
            throw new IllegalArgumentException(ENTRIES_PROPERTY + " must be a power of two in 1..32768, not '"
                    + entriesText + "'");
        }
        // POLL_FIRST came with 5.19, SINGLE_ISSUER with 6.0: a kernel that accepts the latter has the former.
        boolean pollFirst = flag(POLL_FIRST_PROPERTY) && IoUring.isSingleIssuerSupported();
        return new IoUringFeatures(entries, pollFirst, flag(TRY_FIRST_PROPERTY));
    }

    private static boolean flag(String property) {
        String text = System.getProperty(property, "true").trim();
        if (!text.equals("true") && !text.equals("false")) {
            throw new IllegalArgumentException(property + " must be true or false, not '" + text + "'");
        }
        return Boolean.parseBoolean(text);
    }

    /** The {@code io_uring_setup} flags (none of the optional ones; see the class documentation). */
    int setupFlags() {
        return 0;
    }

    @Override
    public String toString() {
        return "pollFirst=" + pollFirst + " tryFirst=" + tryFirst + " singleIssuer=off (kernel " + (IoUring.isSingleIssuerSupported()
                ? "has it" : "lacks it") + ") deferTaskrun=off (kernel " + (IoUring.isDeferTaskrunSupported()
                ? "has it" : "lacks it") + ") multishotAccept=off providedBuffers=off";
    }
}
