package dev.proactor;

/** How hard {@link Demultiplexor#post} tries to get a posted completion handled at once (seed §6.1). */
public enum NotifyLevel {
    /** Only queue it; a thread picks it up when it next looks at the queue. */
    NONE,
    /** Queue it and wake a sleeping follower if there is one. */
    FOLLOWER,
    /** Queue it, wake a follower, or if there is none interrupt a leader. */
    STRONG
}
