package dev.proactor.bench.server.netty;

import dev.proactor.bench.server.BusySpin;
import dev.proactor.bench.server.ConnectionErrors;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The idiomatic Netty echo: write each read buffer back, flush when the read burst ends.
 * Stops reading while the outbound buffer is above the high-water mark. One instance per
 * channel (not {@code @Sharable}: annotations the JMH processor does not claim fail -Werror).
 */
final class NettyEchoHandler extends ChannelInboundHandlerAdapter {
    private final int delayUs;
    private final ConnectionErrors errors;

    NettyEchoHandler(int delayUs, ConnectionErrors errors) {
        this.delayUs = delayUs;
        this.errors = errors;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        BusySpin.spin(delayUs);
        ctx.write(msg, ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        if (!ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        errors.record(cause);
        ctx.close();
    }
}
