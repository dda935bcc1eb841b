/**
 * What a protocol module implements for the harness: its client ({@link org.rpcmatrix.core.adapter.BenchClient},
 * made by a {@link org.rpcmatrix.core.adapter.ClientFactory}, with the optional abilities AttackClient,
 * CalculatorClient, MetadataClient, ConnectFigures and BackgroundTraffic) and its server ({@link
 * org.rpcmatrix.core.adapter.ServerFactory}, {@link org.rpcmatrix.core.adapter.RunningServer}), each given its
 * command line's options.
 */
package org.rpcmatrix.core.adapter;
