// Measurement harness for run.sh: keeps a window of datagrams in flight against the UDP echo, prints echoes/s.
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
public class DgClient {
    public static void main(String[] a) throws Exception {
        DatagramChannel ch = DatagramChannel.open();
        ch.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
        ch.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(a[0])));
        ch.socket().setSoTimeout(200);
        int window = Integer.parseInt(a[1]); long seconds = Long.parseLong(a[2]);
        ByteBuffer out = ByteBuffer.allocate(256), in = ByteBuffer.allocate(2048);
        for (int i = 0; i < window; i++) { out.clear(); ch.write(out); }
        long end = System.nanoTime() + seconds * 1_000_000_000L, echoes = 0, resent = 0;
        ch.configureBlocking(true);
        java.nio.channels.Selector sel = java.nio.channels.Selector.open();
        ch.configureBlocking(false); ch.register(sel, java.nio.channels.SelectionKey.OP_READ);
        while (System.nanoTime() < end) {
            if (sel.select(100) == 0) { for (int i = 0; i < window; i++) { out.clear(); ch.write(out); resent++; } continue; }
            sel.selectedKeys().clear();
            while (true) { in.clear(); if (ch.read(in) <= 0) break; echoes++; out.clear(); ch.write(out); }
        }
        System.out.println("udp echoes/s " + echoes / seconds + " refills " + resent);
    }
}
