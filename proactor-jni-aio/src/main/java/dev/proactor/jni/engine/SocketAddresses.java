package dev.proactor.jni.engine;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.SocketNative;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;

/**
 * Socket addresses and datagram failures as the JDK's channels report them, for the native engines: which address
 * a socket can use, and which exception a failed datagram call becomes. Stateless.
 */
public final class SocketAddresses {

    private SocketAddresses() {
    }

    /**
     * {@code address} as a resolved {@link InetSocketAddress}.
     *
     * @throws UnsupportedAddressTypeException if it is of another kind
     * @throws UnresolvedAddressException      if it is unresolved
     */
    public static InetSocketAddress inet(SocketAddress address) {
        if (!(address instanceof InetSocketAddress)) {
            throw new UnsupportedAddressTypeException();
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        if (inet.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return inet;
    }

    /**
     * The target of a datagram as an {@link InetSocketAddress} a socket of {@code family} can reach.
     *
     * @throws UnsupportedAddressTypeException for an IPv6 target of an IPv4 socket (no route), or another kind
     * @throws UnresolvedAddressException      if it is unresolved
     */
    public static InetSocketAddress datagramTarget(int family, SocketAddress target) {
        InetSocketAddress inet = inet(target);
        if (family == SocketNative.AF_INET && inet.getAddress() instanceof Inet6Address) {
            throw new UnsupportedAddressTypeException();
        }
        return inet;
    }

    /**
     * The exception for a failed datagram call, as the JDK's datagram channel reports it: no target on an
     * unconnected socket is {@link NotYetConnectedException}, an ICMP port unreachable on a connected one a
     * {@link PortUnreachableException}.
     *
     * @return the exception to throw
     * @throws NotYetConnectedException for a send without a target on an unconnected socket
     */
    public static IOException datagramFailure(String call, int result, boolean noTarget) {
        if (noTarget && (result == -ErrnoNative.EDESTADDRREQ || result == -ErrnoNative.ENOTCONN)) {
            throw new NotYetConnectedException();
        }
        IOException mapped = Errors.newException(call, result);
        if (result == -ErrnoNative.ECONNREFUSED) {
            PortUnreachableException unreachable = new PortUnreachableException(mapped.getMessage());
            unreachable.initCause(mapped.getCause() != null ? mapped.getCause() : mapped);
            return unreachable;
        }
        return mapped;
    }
}
