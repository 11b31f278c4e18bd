// Measurement harness for share.sh (not part of the build): one demultiplexor thread runs everything, so no other
// process or scheduler decides the figures: SESSIONS TCP ping-pong sessions (64 B; client and server ends both on the
// demultiplexor) and a UDP echo whose client (also on it) keeps WINDOW datagrams in flight. Prints TCP messages per
// session per second, UDP echoes per second, and the UDP socket's share in sessions' worth (their ratio).
// -Dchain=true|false sets chained callbacks on both datagram sockets (unset: their default).
import dev.proactor.*;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

public class DgShare {
    static final AtomicLong tcp = new AtomicLong(), udp = new AtomicLong();

    static final class Echo implements AsynchHandler {
        final ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        AsynchChannel ch;
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) { ch.close(); return; }
            buf.flip(); ch.write(buf);
        }
        public void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess()) { ch.close(); return; }
            buf.clear(); ch.read(buf);
        }
    }

    static final class Pinger implements AsynchHandler {
        final ByteBuffer out = ByteBuffer.allocateDirect(64), in = ByteBuffer.allocateDirect(64);
        AsynchChannel ch;
        public void onConnectCompleted(OpConnect op) { if (op.isSuccess()) ch.write(out.clear()); }
        public void onWriteCompleted(OpWrite op) { if (op.isSuccess()) ch.read(in.clear()); }
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) return;
            if (in.hasRemaining()) { ch.read(in); return; }
            tcp.incrementAndGet();
            ch.write(out.clear());
        }
    }

    public static void main(String[] a) throws Exception {
        String engine = a[0];
        int sessions = Integer.parseInt(a[1]), window = Integer.parseInt(a[2]), seconds = Integer.parseInt(a[3]);
        String chain = System.getProperty("chain");
        Demultiplexor demux = Demultiplexor.open(ProactorConfig.builder().engine(engine).threads(1).build()).start();
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        AsynchChannel[] server = new AsynchChannel[1];
        server[0] = AsynchChannel.openServer(demux, new AsynchHandler() {
            public void onReadCompleted(OpRead op) {}
            public void onWriteCompleted(OpWrite op) {}
            public void onAcceptCompleted(OpAccept op) {
                try { if (op.isSuccess()) { Echo e = new Echo(); e.ch = op.adopt(e); e.ch.read(e.buf); } } catch (IOException ex) { }
                server[0].accept();
            }
        }, any, 4096);
        server[0].accept();
        SocketAddress tcpAt = server[0].getLocalAddress();
        for (int i = 0; i < sessions; i++) {
            Pinger p = new Pinger();
            p.ch = AsynchChannel.openSocket(demux, p);
            p.ch.connect(tcpAt);
        }
        AsynchChannel[] echo = new AsynchChannel[1];
        echo[0] = AsynchChannel.openDatagram(demux, new AsynchHandler() {
            public void onReadCompleted(OpRead op) {}
            public void onWriteCompleted(OpWrite op) {}
            public void onReceiveCompleted(OpReceive op) {
                if (!op.isSuccess()) return;
                ByteBuffer b = (ByteBuffer) op.getAttachment(); b.flip(); echo[0].send(b, op.getSourceAddress(), b);
            }
            public void onSendCompleted(OpSend op) { ByteBuffer b = (ByteBuffer) op.getAttachment(); echo[0].receive(b.clear(), b); }
        }, any);
        SocketAddress udpAt = echo[0].getLocalAddress();
        AsynchChannel[] client = new AsynchChannel[1];
        client[0] = AsynchChannel.openDatagram(demux, new AsynchHandler() {
            public void onReadCompleted(OpRead op) {}
            public void onWriteCompleted(OpWrite op) {}
            public void onSendCompleted(OpSend op) { ByteBuffer b = (ByteBuffer) op.getAttachment(); client[0].receive(b.clear(), b); }
            public void onReceiveCompleted(OpReceive op) {
                if (!op.isSuccess()) return;
                udp.incrementAndGet();
                ByteBuffer b = (ByteBuffer) op.getAttachment(); b.clear().limit(64); client[0].send(b, udpAt, b);
            }
        }, any);
        if (chain != null) {
            echo[0].setChainedCallbacks(Boolean.parseBoolean(chain));
            client[0].setChainedCallbacks(Boolean.parseBoolean(chain));
        }
        ByteBuffer first = ByteBuffer.allocateDirect(2048);
        echo[0].receive(first, first);
        for (int i = 0; i < window; i++) { ByteBuffer b = ByteBuffer.allocateDirect(2048); b.limit(64); client[0].send(b, udpAt, b); }
        Thread.sleep(3000); // warm-up
        long t0 = tcp.get(), u0 = udp.get(), n0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double s = (System.nanoTime() - n0) / 1e9, perSession = (tcp.get() - t0) / s / sessions, echoes = (udp.get() - u0) / s;
        System.out.printf("tcp msgs/s per session %.0f (total %.0f)  udp echoes/s %.0f  share %.1f sessions%n",
                perSession, perSession * sessions, echoes, echoes / perSession);
        System.exit(0);
    }
}
