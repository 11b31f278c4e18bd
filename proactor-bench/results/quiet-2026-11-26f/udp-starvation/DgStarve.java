// Measurement harness for run.sh (not part of the build): one demultiplexor thread serving a TCP echo with the
// plain accept loop and a UDP echo with -Dslots receives in flight (-Dchain=true|false: chained callbacks on the UDP socket, unset: its default).
import dev.proactor.*;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.io.IOException;

public class DgStarve {
    static final class Echo implements AsynchHandler {
        final ByteBuffer buf = ByteBuffer.allocateDirect(16384);
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
    public static void main(String[] a) throws Exception {
        ProactorConfig cfg = ProactorConfig.builder().engine(System.getProperty("e", "nio")).threads(1).build();
        Demultiplexor demux = Demultiplexor.open(cfg).start();
        AsynchChannel[] server = new AsynchChannel[1];
        server[0] = AsynchChannel.openServer(demux, new AsynchHandler() {
            public void onReadCompleted(OpRead op) {}
            public void onWriteCompleted(OpWrite op) {}
            public void onAcceptCompleted(OpAccept op) {
                try { if (op.isSuccess()) { Echo e = new Echo(); e.ch = op.adopt(e); e.ch.read(e.buf); } } catch (IOException ex) { }
                server[0].accept();
            }
        }, new InetSocketAddress("127.0.0.1", Integer.parseInt(a[0])), 4096);
        server[0].accept();
        int slots = Integer.getInteger("slots", 1);
        AsynchChannel[] udp = new AsynchChannel[1];
        udp[0] = AsynchChannel.openDatagram(demux, new AsynchHandler() {
            public void onReadCompleted(OpRead op) {}
            public void onWriteCompleted(OpWrite op) {}
            public void onReceiveCompleted(OpReceive op) {
                if (!op.isSuccess()) return;
                ByteBuffer b = (ByteBuffer) op.getAttachment(); b.flip(); udp[0].send(b, op.getSourceAddress(), b);
            }
            public void onSendCompleted(OpSend op) { ByteBuffer b = (ByteBuffer) op.getAttachment(); b.clear(); udp[0].receive(b, b); }
        }, new InetSocketAddress("127.0.0.1", Integer.parseInt(a[1])));
        String chain = System.getProperty("chain"); // unset: the channel's default
        if (chain != null) udp[0].setChainedCallbacks(Boolean.parseBoolean(chain));
        for (int i = 0; i < slots; i++) { ByteBuffer b = ByteBuffer.allocateDirect(2048); udp[0].receive(b, b); }
        System.out.println("listening");
        Thread.sleep(Long.MAX_VALUE);
    }
}
