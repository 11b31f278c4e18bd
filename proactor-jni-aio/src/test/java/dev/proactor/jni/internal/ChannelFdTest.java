package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeTestSupport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The descriptor of JDK channels, read through JNI, names the same kernel socket. */
class ChannelFdTest {

    @BeforeEach
    void requireNativeLibrary() {
        NativeTestSupport.assumeNativeLibrary();
    }

    @Test
    void jdkChannelsExposeTheirDescriptors() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept();
                DatagramChannel datagram = DatagramChannel.open().bind(new InetSocketAddress(loopback, 0))) {
            int serverFd = SocketNative.fdOf(server);
            int clientFd = SocketNative.fdOf(client);
            int datagramFd = SocketNative.fdOf(datagram);
            assertTrue(serverFd >= 0 && clientFd >= 0 && datagramFd >= 0);
            assertNotEquals(serverFd, clientFd);
            assertEquals(server.getLocalAddress(), TestSockets.localAddress(serverFd));
            assertEquals(client.getLocalAddress(), TestSockets.localAddress(clientFd));
            assertEquals(datagram.getLocalAddress(), TestSockets.localAddress(datagramFd));

            // Native bytes on the JDK's descriptor arrive through the JDK channel.
            ByteBuffer ping = ByteBuffer.allocateDirect(4).putInt(0x70696e67).flip();
            assertEquals(4, IoNative.write(clientFd, ping));
            ByteBuffer received = ByteBuffer.allocate(4);
            while (received.hasRemaining()) {
                accepted.read(received);
            }
            assertEquals(0x70696e67, received.flip().getInt());
        }
    }

    @Test
    void closedChannelsAreRejected() throws Exception {
        SocketChannel channel = SocketChannel.open();
        channel.close();
        assertThrows(IllegalArgumentException.class, () -> SocketNative.fdOf(channel));
        assertThrows(IllegalArgumentException.class, () -> SocketNative.fdOf(null));
    }
}
