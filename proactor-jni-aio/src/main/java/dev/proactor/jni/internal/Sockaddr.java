package dev.proactor.jni.internal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/**
 * A reusable {@code struct sockaddr_storage} in native memory, encoded from and decoded to
 * {@link InetSocketAddress} with the layout (sizes, offsets, family numbers) fetched from C.
 *
 * <p>Ports, addresses and flow info are in network byte order inside the struct; the family and the
 * IPv6 scope id are in host order. Not thread-safe.
 *
 * <p>For the datagram hot path it remembers its last encoding ({@link #setFor}) and its last decoding
 * ({@link #getCached()}), so sending to, or receiving from, the same peer again allocates nothing.
 */
public final class Sockaddr {

    /** Size of {@code struct sockaddr_storage}: room for any address. */
    public static final int CAPACITY = NativeConstants.intValue("SOCKADDR_STORAGE_SIZE");
    private static final int FAMILY_OFFSET = NativeConstants.intValue("SOCKADDR_FAMILY_OFFSET");
    private static final int IN_SIZE = NativeConstants.intValue("SOCKADDR_IN_SIZE");
    private static final int IN_PORT_OFFSET = NativeConstants.intValue("SIN_PORT_OFFSET");
    private static final int IN_ADDR_OFFSET = NativeConstants.intValue("SIN_ADDR_OFFSET");
    private static final int IN6_SIZE = NativeConstants.intValue("SOCKADDR_IN6_SIZE");
    private static final int IN6_PORT_OFFSET = NativeConstants.intValue("SIN6_PORT_OFFSET");
    private static final int IN6_FLOWINFO_OFFSET = NativeConstants.intValue("SIN6_FLOWINFO_OFFSET");
    private static final int IN6_ADDR_OFFSET = NativeConstants.intValue("SIN6_ADDR_OFFSET");
    private static final int IN6_SCOPE_ID_OFFSET = NativeConstants.intValue("SIN6_SCOPE_ID_OFFSET");

    private final NativeMemory memory = NativeMemory.allocate(CAPACITY);
    private int length;

    /** What the struct holds as last encoded by {@link #setFor}, or null once a native call may have written it. */
    private InetSocketAddress encoded;
    /** Whether {@link #encoded} was written as an IPv4-mapped IPv6 address. */
    private boolean encodedMapped;

    /** The struct bytes {@link #decoded} came from (made on first use), and their length. */
    private byte[] decodedBytes;
    private int decodedLength;
    private InetSocketAddress decoded;

    /** The address of the struct. */
    public long address() {
        return memory.address();
    }

    /**
     * The length of the struct for a native call that reads it: as encoded by {@link #set}, or as implied
     * by the family a native call wrote.
     *
     * @throws IllegalArgumentException if the struct holds no IPv4/IPv6 address
     */
    public int length() {
        if (length != 0) {
            return length;
        }
        int family = family();
        if (family == SocketNative.AF_INET) {
            return IN_SIZE;
        }
        if (family == SocketNative.AF_INET6) {
            return IN6_SIZE;
        }
        throw new IllegalArgumentException("no socket address set");
    }

    /** Clears the struct for a call that writes it (accept, recvfrom, getsockname) and returns its address. */
    long prepareForOutput() {
        memory.buffer().putShort(FAMILY_OFFSET, (short) 0);
        length = 0;
        encoded = null;
        return memory.address();
    }

    /**
     * Encodes {@code socketAddress} as {@code sockaddr_in} or {@code sockaddr_in6}.
     *
     * @throws IllegalArgumentException if the address is unresolved
     */
    public Sockaddr set(InetSocketAddress socketAddress) {
        return encode(socketAddress, false);
    }

    /**
     * Encodes {@code socketAddress} for a socket of {@code socketFamily}: as {@link #set}, except that an IPv4
     * address for an {@code AF_INET6} socket becomes the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}, the form
     * a dual-stack socket needs. When the struct already holds this encoding of an equal address (the previous
     * call), nothing is written or allocated.
     *
     * @throws IllegalArgumentException if the address is unresolved
     */
    public Sockaddr setFor(int socketFamily, InetSocketAddress socketAddress) {
        boolean mapped = socketFamily == SocketNative.AF_INET6 && socketAddress.getAddress() instanceof Inet4Address;
        if (mapped == encodedMapped && socketAddress.equals(encoded)) {
            return this;
        }
        return encode(socketAddress, mapped);
    }

    private Sockaddr encode(InetSocketAddress socketAddress, boolean mapped) {
        InetAddress inet = socketAddress.getAddress();
        if (inet == null) {
            throw new IllegalArgumentException("unresolved address: " + socketAddress);
        }
        ByteBuffer struct = memory.buffer();
        for (int i = 0; i < CAPACITY; i++) {
            struct.put(i, (byte) 0);
        }
        if (inet instanceof Inet4Address && !mapped) {
            struct.putShort(FAMILY_OFFSET, (short) SocketNative.AF_INET);
            putNetworkShort(struct, IN_PORT_OFFSET, socketAddress.getPort());
            struct.put(IN_ADDR_OFFSET, inet.getAddress());
            length = IN_SIZE;
        } else {
            struct.putShort(FAMILY_OFFSET, (short) SocketNative.AF_INET6);
            putNetworkShort(struct, IN6_PORT_OFFSET, socketAddress.getPort());
            struct.putInt(IN6_FLOWINFO_OFFSET, 0);
            if (mapped) {
                struct.put(IN6_ADDR_OFFSET + 10, (byte) 0xFF);
                struct.put(IN6_ADDR_OFFSET + 11, (byte) 0xFF);
                struct.put(IN6_ADDR_OFFSET + 12, inet.getAddress());
            } else {
                struct.put(IN6_ADDR_OFFSET, inet.getAddress());
                struct.putInt(IN6_SCOPE_ID_OFFSET, ((Inet6Address) inet).getScopeId());
            }
            length = IN6_SIZE;
        }
        encoded = socketAddress;
        encodedMapped = mapped;
        return this;
    }

    /** The address family in the struct ({@code AF_INET}, {@code AF_INET6}, or 0 when empty). */
    public int family() {
        return memory.buffer().getShort(FAMILY_OFFSET) & 0xFFFF;
    }

    /**
     * Decodes the struct a native call wrote. An IPv4-mapped IPv6 address decodes to an
     * {@link Inet4Address}, as the JDK does.
     *
     * @return the address, or {@code null} when the struct holds no IPv4/IPv6 address
     */
    public InetSocketAddress get() {
        ByteBuffer struct = memory.buffer();
        int family = family();
        try {
            if (family == SocketNative.AF_INET) {
                byte[] bytes = new byte[4];
                struct.get(IN_ADDR_OFFSET, bytes);
                return new InetSocketAddress(InetAddress.getByAddress(bytes), getNetworkShort(struct, IN_PORT_OFFSET));
            }
            if (family == SocketNative.AF_INET6) {
                byte[] bytes = new byte[16];
                struct.get(IN6_ADDR_OFFSET, bytes);
                int scopeId = struct.getInt(IN6_SCOPE_ID_OFFSET);
                InetAddress inet = scopeId != 0 ? Inet6Address.getByAddress(null, bytes, scopeId)
                        : InetAddress.getByAddress(bytes);
                return new InetSocketAddress(inet, getNetworkShort(struct, IN6_PORT_OFFSET));
            }
        } catch (UnknownHostException e) {
            // Only thrown for a wrong array length, which the fixed sizes above rule out.
            throw new IllegalStateException("malformed socket address from the kernel", e);
        }
        return null;
    }

    /**
     * As {@link #get()}, but returns the very object of the previous call when the struct holds the same bytes
     * as then: receiving from the same sender again allocates nothing.
     *
     * @return the address, or {@code null} when the struct holds no IPv4/IPv6 address
     */
    public InetSocketAddress getCached() {
        int family = family();
        int size = family == SocketNative.AF_INET ? IN_SIZE : family == SocketNative.AF_INET6 ? IN6_SIZE : 0;
        if (size == 0) {
            return null;
        }
        ByteBuffer struct = memory.buffer();
        if (decoded != null && size == decodedLength && sameBytes(struct, size)) {
            return decoded;
        }
        InetSocketAddress address = get();
        if (decodedBytes == null) {
            decodedBytes = new byte[CAPACITY];
        }
        struct.get(0, decodedBytes, 0, size);
        decodedLength = size;
        decoded = address;
        return address;
    }

    private boolean sameBytes(ByteBuffer struct, int size) {
        for (int i = 0; i < size; i++) {
            if (struct.get(i) != decodedBytes[i]) {
                return false;
            }
        }
        return true;
    }

    private static void putNetworkShort(ByteBuffer struct, int offset, int value) {
        struct.put(offset, (byte) (value >>> 8));
        struct.put(offset + 1, (byte) value);
    }

    private static int getNetworkShort(ByteBuffer struct, int offset) {
        return (struct.get(offset) & 0xFF) << 8 | (struct.get(offset + 1) & 0xFF);
    }
}
