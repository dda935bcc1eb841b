package org.rpcmatrix.grpc;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Netty transport of the shaded Netty inside grpc-netty-shaded: epoll when its bundled native library
 * loads, NIO otherwise. grpc-java makes the same choice by default; naming the channel types and event loop
 * groups here lets the process report what actually ran instead of guessing.
 */
record NettyTransport(String name, IoHandlerFactory handlers, Class<? extends ServerChannel> serverChannel,
        Class<? extends Channel> clientChannel, String whyNotEpoll) {

    static NettyTransport pick() {
        if (Epoll.isAvailable()) {
            return new NettyTransport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                    EpollSocketChannel.class, null);
        }
        return new NettyTransport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class,
                NioSocketChannel.class, String.valueOf(Epoll.unavailabilityCause()));
    }

    /** An event loop group of {@code threads} threads (0: Netty's default, twice the available cores). */
    EventLoopGroup group(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, handlers);
    }

    /** {@code transport}, and why epoll could not be used when it was not. */
    Map<String, String> facts() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("transport", name);
        if (whyNotEpoll != null) {
            facts.put("epoll_unavailable", whyNotEpoll);
        }
        return facts;
    }
}
