package dev.proactor.bench.server.http;

import dev.proactor.bench.server.ConnectionErrors;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;

/**
 * Answers GET and HEAD with a file under the document root: head, then the body as a
 * {@link DefaultFileRegion} (sendfile on the epoll transport, {@code transferTo} on NIO), then
 * the last-content marker. Keep-alive follows the request; responses are flushed when a read
 * burst ends, so pipelined requests leave in one flush. Errors are short text responses
 * (400, 403, 404, 405, 500). Reading stops while the outbound buffer is above its high-water mark.
 *
 * <p>One instance per channel (it holds the channel's closing state).
 */
final class StaticFileHandler extends SimpleChannelInboundHandler<HttpObject> {
    private static final String ALLOWED_METHODS = "GET, HEAD";

    private final DocumentRoot root;
    private final HttpDateCache dates;
    private final ConnectionErrors errors;
    private boolean closing;

    StaticFileHandler(DocumentRoot root, HttpDateCache dates, ConnectionErrors errors) {
        super(HttpObject.class, true);
        this.root = root;
        this.dates = dates;
        this.errors = errors;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        // Request body chunks (not expected for GET / HEAD) are released by the superclass.
        if (msg instanceof HttpRequest && !closing) {
            respond(ctx, (HttpRequest) msg);
        }
    }

    private void respond(ChannelHandlerContext ctx, HttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            sendError(ctx, request, HttpResponseStatus.BAD_REQUEST, false);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpMethod method = request.method();
        boolean head = HttpMethod.HEAD.equals(method);
        if (!head && !HttpMethod.GET.equals(method)) {
            sendError(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive);
            return;
        }
        String path;
        try {
            path = new QueryStringDecoder(request.uri()).path();
        } catch (IllegalArgumentException e) {
            sendError(ctx, request, HttpResponseStatus.BAD_REQUEST, keepAlive); // malformed percent-encoding
            return;
        }
        DocumentRoot.FileLookup found = root.lookup(path);
        if (found.status() != 200) {
            if (found.status() == 500) {
                errors.record(new IOException(found.detail()));
            }
            sendError(ctx, request, HttpResponseStatus.valueOf(found.status()), keepAlive);
            return;
        }
        FileChannel file;
        long size;
        try {
            file = FileChannel.open(found.file(), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            sendError(ctx, request, HttpResponseStatus.NOT_FOUND, keepAlive); // removed since the lookup
            return;
        } catch (AccessDeniedException e) {
            sendError(ctx, request, HttpResponseStatus.FORBIDDEN, keepAlive);
            return;
        } catch (IOException e) {
            errors.record(e);
            sendError(ctx, request, HttpResponseStatus.INTERNAL_SERVER_ERROR, keepAlive);
            return;
        }
        try {
            size = file.size(); // the length actually sent
        } catch (IOException e) {
            errors.record(e);
            close(file);
            sendError(ctx, request, HttpResponseStatus.INTERNAL_SERVER_ERROR, keepAlive);
            return;
        }
        HttpResponse response = new DefaultHttpResponse(request.protocolVersion(), HttpResponseStatus.OK);
        HttpHeaders h = response.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, ContentTypes.of(found.file().getFileName().toString()));
        h.set(HttpHeaderNames.DATE, dates.now());
        h.set(HttpHeaderNames.LAST_MODIFIED, HttpDateCache.format(found.lastModifiedMillis()));
        HttpUtil.setContentLength(response, size);
        HttpUtil.setKeepAlive(response, keepAlive);
        ctx.write(response, ctx.voidPromise());
        if (head || size == 0) {
            close(file);
        } else {
            // The region owns the file from here: it closes it when released after the write.
            ctx.write(new DefaultFileRegion(file, 0, size), ctx.voidPromise());
        }
        finish(ctx, LastHttpContent.EMPTY_LAST_CONTENT, keepAlive);
    }

    private void sendError(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status,
                           boolean keepAlive) {
        byte[] body = (status.code() + " " + status.reasonPhrase() + "\n").getBytes(StandardCharsets.US_ASCII);
        HttpVersion version = request.decoderResult().isSuccess() ? request.protocolVersion() : HttpVersion.HTTP_1_1;
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, Unpooled.wrappedBuffer(body));
        HttpHeaders h = response.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        h.set(HttpHeaderNames.DATE, dates.now());
        if (status.equals(HttpResponseStatus.METHOD_NOT_ALLOWED)) {
            h.set(HttpHeaderNames.ALLOW, ALLOWED_METHODS);
        }
        HttpUtil.setContentLength(response, body.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        finish(ctx, response, keepAlive);
    }

    private void finish(ChannelHandlerContext ctx, Object last, boolean keepAlive) {
        if (keepAlive) {
            ctx.write(last, ctx.voidPromise());
        } else {
            closing = true; // later pipelined requests of this connection are not answered
            ctx.write(last).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void close(FileChannel file) {
        try {
            file.close();
        } catch (IOException e) {
            errors.record(e);
        }
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
